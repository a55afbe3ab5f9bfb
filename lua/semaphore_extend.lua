-- Reset the lease of the hold ARGV[1] ("<token>:<weight>") of a semaphore to
-- ARGV[2] ms, if its lease is still running.
-- KEYS[1]: the holds (a sorted set scored by lease end, server ms); KEYS[2]:
-- the permits they take (same expiry). Both keys last as long as the
-- longest lease at least.
-- Returns 1 when renewed, 0 when the hold is gone (released, forced, or its
-- lease ended: such a hold is removed with its permits).
-- Commands: a renewal 4 (TIME, ZSCORE, ZADD, PTTL) plus two PEXPIREs when the
-- new lease outlives the keys; a hold found expired 4 to 6.
-- Complexity: O(log N), N the holds.
local t = redis.call('time')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local ttl = tonumber(ARGV[2])
local score = redis.call('zscore', KEYS[1], ARGV[1])

if not score then
    return 0
end
if tonumber(score) <= now then
    redis.call('zrem', KEYS[1], ARGV[1])
    if redis.call('zcard', KEYS[1]) == 0
        or redis.call('decrby', KEYS[2], tonumber(string.match(ARGV[1], ':(%d+)$'))) <= 0 then
        redis.call('del', KEYS[1], KEYS[2])
    end
    return 0
end
redis.call('zadd', KEYS[1], 'XX', string.format('%d', now + ttl), ARGV[1])
if redis.call('pttl', KEYS[1]) < ttl then
    redis.call('pexpire', KEYS[1], ttl)
    redis.call('pexpire', KEYS[2], ttl)
end
return 1
