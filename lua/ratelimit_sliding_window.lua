-- RateLimiter, policy sliding_window (exact): KEYS[1] is a sorted set with
-- one member per permit taken, scored by the server time (microseconds) it
-- was taken at. Permits are taken only while the window (now - window, now]
-- holds at most limit of them with the new ones, and always at a time later
-- than every earlier permit, so that no window of that length ever holds
-- more than limit.
-- ARGV[1] = limit, ARGV[2] = window in ms, ARGV[3] = permits to take.
-- Returns {taken (1/0), permits left now, ms until the permits asked for
-- are due (0 when taken)}.
if redis.replicate_commands then
    redis.replicate_commands()
end
local limit, window, permits = tonumber(ARGV[1]), tonumber(ARGV[2]) * 1000, tonumber(ARGV[3])
local t = redis.call('time')
local now = tonumber(t[1]) * 1000000 + tonumber(t[2])
redis.call('zremrangebyscore', KEYS[1], '-inf', string.format('%.17g', now - window))
local used = redis.call('zcard', KEYS[1])
if used + permits > limit then
    -- Due when the oldest permits that are in the way leave the window.
    local oldest = redis.call('zrange', KEYS[1], used + permits - limit - 1, used + permits - limit - 1, 'WITHSCORES')
    local due = tonumber(oldest[2]) + window
    return { 0, limit - used, math.max(math.ceil((due - now) / 1000), 1) }
end
-- Two calls within one microsecond: the later one takes the next one.
local last = redis.call('zrange', KEYS[1], -1, -1, 'WITHSCORES')
local at = now
if last[2] and tonumber(last[2]) >= at then
    at = tonumber(last[2]) + 1
end
local stamp = string.format('%.17g', at)
local args = {}
for i = 1, permits do
    args[#args + 1] = stamp
    args[#args + 1] = stamp .. ':' .. i
    if #args == 1000 or i == permits then
        redis.call('zadd', KEYS[1], unpack(args))
        args = {}
    end
end
redis.call('pexpire', KEYS[1], math.ceil((at - now + window) / 1000))
return { 1, limit - used - permits, 0 }
