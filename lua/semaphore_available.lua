-- The permits of a semaphore free now for the limit ARGV[1]: the limit less
-- the weights of the live holds, never below 0. Read only: holds whose
-- lease ended are not counted, and left for the next acquire to purge.
-- KEYS[1]: the holder key (absent: no hold; a hold alone; '+': the holds
-- are in KEYS[2], see semaphore_acquire.lua); KEYS[2]: the holds (a sorted
-- set of "<token>:<weight>" scored by lease end, server ms), one permit
-- each; KEYS[3]: the permits weighted holds take beyond their first.
-- Commands: 1 (GET) when free or held alone; otherwise 5 (GET, TIME, ZCARD,
-- GET, ZRANGEBYSCORE of the expired holds); nothing per permit.
-- Complexity: O(log N + M), N the holds, M the expired holds not yet purged.
local limit = tonumber(ARGV[1])
local solo = redis.call('get', KEYS[1])

if not solo then
    return limit
elseif solo ~= '+' then
    local held = tonumber(string.match(solo, ':(%d+)$'))
    return limit > held and limit - held or 0
end
local t = redis.call('time')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local count = redis.call('zcard', KEYS[2])
local extra = tonumber(redis.call('get', KEYS[3]) or '0')

for _, m in ipairs(redis.call('zrangebyscore', KEYS[2], '-inf', now)) do
    count = count - 1
    extra = extra - tonumber(string.match(m, ':(%d+)$')) + 1
end
local held = count + (extra > 0 and extra or 0)
return limit > held and limit - held or 0
