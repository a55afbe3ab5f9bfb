-- Reset the lease of the hold ARGV[1] ("<token>:<weight>") of a semaphore to
-- ARGV[2] ms, if its lease is still running.
-- KEYS[1]: the holder key (a hold alone, its lease the key's expiry, or '+'
-- when the holds are in KEYS[2]: see semaphore_acquire.lua); KEYS[2]: the
-- holds (a sorted set scored by lease end, server ms); KEYS[3]: the permits
-- weighted holds take beyond their first. KEYS[1] and KEYS[2] last as long
-- as the longest lease in KEYS[2] at least, KEYS[3] as long as the longest
-- weighted lease.
-- Returns 1 when renewed, 0 when the hold is gone (released, forced, or its
-- lease ended: such a hold is removed with its permits).
-- Commands: a hold alone 2 (GET, PEXPIRE). A hold in KEYS[2] 5 (GET, TIME,
-- ZSCORE, ZADD, PTTL) plus 2 PEXPIRE when the new lease outlives the
-- keys; a weighted hold's adds PTTL of KEYS[3] and its PEXPIRE likewise. A
-- hold found expired 4 (GET, TIME, ZSCORE, ZREM), weighted 5 or 6 (DECRBY,
-- DEL).
-- Complexity: O(log N), N the holds.
local ttl = tonumber(ARGV[2])

if redis.call('get', KEYS[1]) == ARGV[1] then
    redis.call('pexpire', KEYS[1], ttl)
    return 1
end
local t = redis.call('time')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local score = redis.call('zscore', KEYS[2], ARGV[1])

if not score then
    return 0
end
local weight = tonumber(string.match(ARGV[1], ':(%d+)$'))
if tonumber(score) <= now then
    redis.call('zrem', KEYS[2], ARGV[1])
    if weight > 1 and redis.call('decrby', KEYS[3], weight - 1) <= 0 then
        redis.call('del', KEYS[3])
    end
    return 0
end
redis.call('zadd', KEYS[2], 'XX', string.format('%d', now + ttl), ARGV[1])
if redis.call('pttl', KEYS[1]) < ttl then
    redis.call('pexpire', KEYS[1], ttl)
    redis.call('pexpire', KEYS[2], ttl)
end
if weight > 1 and redis.call('pttl', KEYS[3]) < ttl then
    redis.call('pexpire', KEYS[3], ttl)
end
return 1
