-- Whether the hold ARGV[1] ("<token>:<weight>") of the semaphore whose holds
-- are KEYS[1] (a sorted set scored by lease end, server ms) is still there
-- with its lease running. Read only.
-- Returns the ms left of its lease, or -1 when it is gone.
-- Commands: 2 (TIME, ZSCORE).
-- Complexity: O(1).
local t = redis.call('time')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local score = redis.call('zscore', KEYS[1], ARGV[1])

if not score or tonumber(score) <= now then
    return -1
end
return tonumber(score) - now
