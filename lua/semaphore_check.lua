-- Whether the hold ARGV[1] ("<token>:<weight>") of a semaphore is still
-- there with its lease running: alone in the holder key KEYS[1] (its lease
-- the key's expiry), or in the holds KEYS[2] (a sorted set scored by lease
-- end, server ms). Read only.
-- Returns the ms left of its lease, or -1 when it is gone.
-- Commands: a hold alone 2 (GET, PTTL); otherwise 3 (GET, TIME, ZSCORE).
-- Complexity: O(1).
if redis.call('get', KEYS[1]) == ARGV[1] then
    return redis.call('pttl', KEYS[1])
end
local t = redis.call('time')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local score = redis.call('zscore', KEYS[2], ARGV[1])

if not score or tonumber(score) <= now then
    return -1
end
return tonumber(score) - now
