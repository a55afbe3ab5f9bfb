-- Release the shared hold of token ARGV[1] on the lock KEYS[1] (see
-- read_acquire.lua): KEYS[2] the readers, KEYS[3] and KEYS[4] the lock's
-- waiters marker and wake-up list (release.lua), KEYS[5] and KEYS[6] the
-- readers'. The last reader out deletes the lock key and, while waiters are
-- marked (KEYS[3]: writers, and readers held back, mark it), wakes a waiting
-- writer (and the readers, in case the writer gave up); when one share is
-- left, a waiting writer is woken too (that share may be its own, to
-- promote). Otherwise the lock key's expiry becomes the latest live lease's.
-- Returns 1 when our share was there and live, 0 otherwise (nothing of
-- anyone else's is touched).
-- Complexity: O(1) for the one reader (GET, DEL, PTTL: an exclusive
-- release's work); otherwise O(log N + M) for N live shares and M expired
-- ones purged.
local function wake(marker, list)
    local waiting = redis.call('pttl', marker)
    if waiting > 0 then
        if redis.call('rpush', list, '1') > 1 then
            redis.call('lpop', list)
        end
        redis.call('pexpire', list, waiting)
    end
    return waiting > 0
end

local held = redis.call('get', KEYS[1])
if not held or string.byte(held, 1) ~= 42 then
    return 0
end
local at = string.find(held, '@', 2, true)
local one = string.sub(held, 2, (at or 0) - 1)
if one ~= '' then
    -- One reader: the lock goes if it is us, and nothing changes if not (ours
    -- is gone).
    if one ~= ARGV[1] then
        return 0
    end
    redis.call('del', KEYS[1])
    if wake(KEYS[3], KEYS[4]) then
        wake(KEYS[5], KEYS[6])
    end
    return 1
end
local t = redis.call('time')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local score = redis.call('zscore', KEYS[2], ARGV[1])
local ours = (score and tonumber(score) > now) and 1 or 0
redis.call('zrem', KEYS[2], ARGV[1])
redis.call('zremrangebyscore', KEYS[2], '-inf', now)
local left = redis.call('zcard', KEYS[2])
if left == 0 then
    redis.call('del', KEYS[1], KEYS[2])
    if wake(KEYS[3], KEYS[4]) then
        wake(KEYS[5], KEYS[6])
    end
    return ours
end
if left == 1 then
    wake(KEYS[3], KEYS[4])
end
local last = redis.call('zrange', KEYS[2], -1, -1, 'WITHSCORES')
local px = math.max(tonumber(last[2]) - now, 1)
redis.call('pexpire', KEYS[1], px)
redis.call('pexpire', KEYS[2], px)
return ours
