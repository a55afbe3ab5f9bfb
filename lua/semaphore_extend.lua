-- Reset the lease of the hold ARGV[1] ("<token>:<weight>") of a semaphore to
-- ARGV[2] ms, if its lease is still running.
-- KEYS[1]: the holds (a sorted set scored by lease end, server ms); KEYS[2]:
-- the permits weighted holds take beyond their first (see
-- semaphore_acquire.lua). KEYS[1] lasts as long as the longest lease at
-- least, KEYS[2] as long as the longest weighted lease.
-- Returns 1 when renewed, 0 when the hold is gone (released, forced, or its
-- lease ended: such a hold is removed with its permits).
-- Commands: a renewal 4 (TIME, ZSCORE, ZADD, PTTL) plus PEXPIRE when the new
-- lease outlives the holds; a weighted hold's adds PTTL of KEYS[2] and its
-- PEXPIRE likewise. A hold found expired 3 (TIME, ZSCORE, ZREM), weighted
-- 4 or 5 (DECRBY, DEL).
-- Complexity: O(log N), N the holds.
local t = redis.call('time')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local ttl = tonumber(ARGV[2])
local score = redis.call('zscore', KEYS[1], ARGV[1])

if not score then
    return 0
end
local weight = tonumber(string.match(ARGV[1], ':(%d+)$'))
if tonumber(score) <= now then
    redis.call('zrem', KEYS[1], ARGV[1])
    if weight > 1 and redis.call('decrby', KEYS[2], weight - 1) <= 0 then
        redis.call('del', KEYS[2])
    end
    return 0
end
redis.call('zadd', KEYS[1], 'XX', string.format('%d', now + ttl), ARGV[1])
if redis.call('pttl', KEYS[1]) < ttl then
    redis.call('pexpire', KEYS[1], ttl)
end
if weight > 1 and redis.call('pttl', KEYS[2]) < ttl then
    redis.call('pexpire', KEYS[2], ttl)
end
return 1
