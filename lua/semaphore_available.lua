-- The permits of a semaphore free now for the limit ARGV[1]: the limit less
-- the weights of the live holds, never below 0. Read only: holds whose
-- lease ended are not counted, and left for the next acquire to purge.
-- KEYS[1]: the holds (a sorted set of "<token>:<weight>" scored by lease end,
-- server ms), one permit each; KEYS[2]: the permits weighted holds take
-- beyond their first (see semaphore_acquire.lua).
-- Commands: 4 (TIME, ZCARD, GET, ZRANGEBYSCORE of the expired holds);
-- nothing per permit.
-- Complexity: O(log N + M), N the holds, M the expired holds not yet purged.
local t = redis.call('time')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local count = redis.call('zcard', KEYS[1])
local extra = tonumber(redis.call('get', KEYS[2]) or '0')
local limit = tonumber(ARGV[1])

for _, m in ipairs(redis.call('zrangebyscore', KEYS[1], '-inf', now)) do
    count = count - 1
    extra = extra - tonumber(string.match(m, ':(%d+)$')) + 1
end
local held = count + (extra > 0 and extra or 0)
return limit > held and limit - held or 0
