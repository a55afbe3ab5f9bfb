-- RateLimiter, policy fixed_window: the classic counter. KEYS[1] counts the
-- permits taken in the current window, which starts with the first permit
-- and ends when the key expires (the server's clock): INCRBY and PEXPIRE in
-- one script, so no counter is ever left without its expiry.
-- ARGV[1] = limit, ARGV[2] = window in ms, ARGV[3] = permits to take.
-- Returns {taken (1/0), permits left now, ms until the permits asked for
-- are due (0 when taken)}.
local limit, window, permits = tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[3])
local used = tonumber(redis.call('get', KEYS[1]) or '0') or 0
if used + permits > limit then
    local ends = redis.call('pttl', KEYS[1])
    if ends < 0 then
        -- A counter without expiry (written by someone else): give it one.
        redis.call('pexpire', KEYS[1], window)
        ends = window
    end
    -- The key is gone once the server's clock is past its expiry: 1 ms on.
    return { 0, math.max(limit - used, 0), ends + 1 }
end
used = redis.call('incrby', KEYS[1], permits)
if redis.call('pttl', KEYS[1]) < 0 then
    redis.call('pexpire', KEYS[1], window)
end
return { 1, limit - used, 0 }
