-- RateLimiter, policy fixed_window: the classic counter. KEYS[1] counts the
-- permits taken in the current window, which starts with the first permit
-- and ends window ms later, when the key expires (the server's clock):
-- INCRBY and PEXPIRE in one script, so no counter is ever left without its
-- expiry. Redis drops a key only once its clock is past the expiry's
-- millisecond; at that millisecond the window has ended (window ms after it
-- began), so a counter with no time left (PTTL 0) counts as gone, and the
-- permits it kept back are due exactly when PTTL says.
-- ARGV[1] = limit, ARGV[2] = window in ms, ARGV[3] = permits to take.
-- Returns {taken (1/0), permits left now, ms until the permits asked for
-- are due (0 when taken), at most window}.
-- Cost: O(1).
local limit, window, permits = tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[3])
local ends = redis.call('pttl', KEYS[1])
local used = 0
if ends > 0 or ends == -1 then
    used = tonumber(redis.call('get', KEYS[1]) or '0') or 0
end
if ends == -1 then
    -- A counter without expiry (written by someone else): give it one.
    redis.call('pexpire', KEYS[1], window)
    ends = window
end
if used + permits > limit then
    return { 0, math.max(limit - used, 0), ends }
end
if ends > 0 then
    used = redis.call('incrby', KEYS[1], permits)
else
    -- No counter, or one whose window has just ended: a new window.
    redis.call('set', KEYS[1], permits, 'PX', window)
    used = permits
end
return { 1, limit - used, 0 }
