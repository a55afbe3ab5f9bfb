-- Reset the lease of the shared hold of token ARGV[1] on the lock KEYS[1]
-- (readers KEYS[2], see read_acquire.lua) to ARGV[2] ms, if it is still live;
-- the lock key's expiry becomes the latest live lease's. With ARGV[3] = '1'
-- (isAcquired) nothing changes: the share's ms left are returned instead.
-- Returns 1 (renewed) or the ms left; -2 when the share is gone.
-- Complexity: O(1) for the one reader; otherwise O(log N) for N live shares.
local held = redis.call('get', KEYS[1])
if not held or string.byte(held, 1) ~= 42 then
    return -2
end
local at = string.find(held, '@', 2, true)
local one = string.sub(held, 2, (at or 0) - 1)
if one ~= '' then
    -- One reader: its lease is the key's.
    if one ~= ARGV[1] then
        return -2
    end
    if ARGV[3] == '1' then
        return math.max(redis.call('pttl', KEYS[1]), 0)
    end
    redis.call('set', KEYS[1], held, 'PX', ARGV[2])
    return 1
end
local t = redis.call('time')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local score = redis.call('zscore', KEYS[2], ARGV[1])
if not score or tonumber(score) <= now then
    return -2
end
if ARGV[3] == '1' then
    return tonumber(score) - now
end
redis.call('zadd', KEYS[2], now + tonumber(ARGV[2]), ARGV[1])
local last = redis.call('zrange', KEYS[2], -1, -1, 'WITHSCORES')
local px = math.max(tonumber(last[2]) - now, 1)
redis.call('pexpire', KEYS[1], px)
redis.call('pexpire', KEYS[2], px)
return 1
