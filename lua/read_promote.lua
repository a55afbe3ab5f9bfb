-- Promote the shared hold of token ARGV[1] on the lock KEYS[1] (readers
-- KEYS[2], see read_acquire.lua) to an exclusive one with a lease of ARGV[2]
-- ms, when it is the only live share. KEYS[3]: the fence counter,
-- incremented when ARGV[3] is '1'. KEYS[4]: the writers' waiters marker;
-- KEYS[5], KEYS[6]: the readers' waiters marker and wake-up list.
-- ARGV[4] > 0: the caller waits that long more: a refusal marks the lock as
-- waited for by a writer (no new share is granted meanwhile; the mark lasts
-- 2 s at most, renewed by the next attempt) and the writers' marker, so
-- that the release of the last other share wakes us. ARGV[4] = -1: the
-- caller gives up: the writer's mark goes, and waiting readers are woken.
-- Returns {1, fence} promoted, {0, ms to block at most} not yet (other
-- shares live), {-1, 0} our share is gone.
-- Complexity: O(1) for the one reader; otherwise O(log N + M) for N live
-- shares and M expired ones purged.
local held = redis.call('get', KEYS[1])
if not held or string.byte(held, 1) ~= 42 then
    return {-1, 0}
end
local at = string.find(held, '@', 2, true)
local one = string.sub(held, 2, (at or 0) - 1)
local wait = tonumber(ARGV[4])
local function promote()
    redis.call('set', KEYS[1], ARGV[1], 'PX', ARGV[2])
    local fence = 0
    if ARGV[3] == '1' then
        fence = redis.call('incr', KEYS[3])
    end
    return {1, fence}
end

if wait < 0 then
    if at then
        redis.call('set', KEYS[1], string.sub(held, 1, at - 1), 'KEEPTTL')
        local waiting = redis.call('pttl', KEYS[5])
        if waiting > 0 and redis.call('llen', KEYS[6]) == 0 then
            redis.call('rpush', KEYS[6], '1')
            redis.call('pexpire', KEYS[6], waiting)
        end
    end
    return {0, 0}
end
if one ~= '' then
    -- One reader: ours is the only share, or ours is gone.
    if one ~= ARGV[1] then
        return {-1, 0}
    end
    return promote()
end
local t = redis.call('time')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
redis.call('zremrangebyscore', KEYS[2], '-inf', now)
if not redis.call('zscore', KEYS[2], ARGV[1]) then
    return {-1, 0}
end
if redis.call('zcard', KEYS[2]) == 1 then
    redis.call('del', KEYS[2])
    return promote()
end
if wait > 0 then
    redis.call('set', KEYS[1], '*@' .. (now + math.min(wait, 2000)), 'KEEPTTL')
    if redis.call('pttl', KEYS[4]) < wait then
        redis.call('set', KEYS[4], '1', 'PX', wait)
    end
end
-- Block no longer than until the earliest other share ends (a holder that
-- dies wakes nobody).
local first = redis.call('zrange', KEYS[2], 0, 1, 'WITHSCORES')
local ends = tonumber(first[1] == ARGV[1] and first[4] or first[2])
return {0, math.max(ends - now, 1)}
