-- Take the lock KEYS[1] for owner token ARGV[1] with a lease of ARGV[2] ms.
-- KEYS[2]: the lock's fence counter, incremented on every grant when ARGV[3]
-- is '1'. KEYS[3]: the lock's waiters marker; a caller that will wait
-- ARGV[4] ms (> 0) for a release keeps it alive that long, so the release
-- knows to wake a waiter.
-- KEYS[4], when given: the caller's own wake-up list. The caller's BLPOP on
-- it (and on the lock's wake-up list, KEYS[5]) follows this script in the
-- same write. A wake-up pushed there lets that BLPOP return at once: when
-- the lock was granted, and when the holder's lease ends within ARGV[5] ms
-- (a holder that dies wakes nobody). A grant also drops a wake-up left on
-- the lock's list by the release before: nobody is blocked on a list that
-- holds one, and a waiter that took it now would find the lock taken (the
-- next release wakes it).
-- Returns {1, fence} when granted; when not, {0, pttl of the holder's
-- lease}.
local function wake_caller()
    if KEYS[4] then
        redis.call('rpush', KEYS[4], '1')
        redis.call('pexpire', KEYS[4], ARGV[2])
    end
end

if redis.call('set', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2]) then
    local fence = 0
    if ARGV[3] == '1' then
        fence = redis.call('incr', KEYS[2])
    end
    if KEYS[5] then
        redis.call('del', KEYS[5])
    end
    wake_caller()
    return {1, fence}
end
local wait = tonumber(ARGV[4])
if wait > 0 and redis.call('pttl', KEYS[3]) < wait then
    redis.call('set', KEYS[3], '1', 'PX', wait)
end
local pttl = redis.call('pttl', KEYS[1])
if pttl >= 0 and pttl < tonumber(ARGV[5] or '0') then
    wake_caller()
end
return {0, pttl}
