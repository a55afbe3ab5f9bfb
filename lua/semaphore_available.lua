-- The permits of a semaphore free now for the limit ARGV[1]: the limit less
-- the weights of the live holds, never below 0. Read only: holds whose
-- lease ended are not counted, and left for the next acquire to purge.
-- KEYS[1]: the holds (a sorted set of "<token>:<weight>" scored by lease end,
-- server ms); KEYS[2]: the permits they take.
-- Commands: 3 (TIME, GET, ZRANGEBYSCORE of the expired holds); nothing per
-- permit.
-- Complexity: O(log N + M), N the holds, M the expired holds not yet purged.
local t = redis.call('time')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local held = tonumber(redis.call('get', KEYS[2]) or '0')
local limit = tonumber(ARGV[1])

for _, m in ipairs(redis.call('zrangebyscore', KEYS[1], '-inf', now)) do
    held = held - tonumber(string.match(m, ':(%d+)$'))
end
return limit > held and limit - held or 0
