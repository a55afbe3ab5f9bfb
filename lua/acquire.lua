-- Take the lock KEYS[1] for owner token ARGV[1] with a lease of ARGV[2] ms.
-- KEYS[2]: the lock's fence counter, incremented on every grant when ARGV[3]
-- is '1'. KEYS[3]: the lock's waiters marker; a caller that will wait
-- ARGV[4] ms (> 0) for a release keeps it alive that long, so the release
-- knows to wake a waiter.
-- KEYS[4], when given: the caller's own wake-up list. The caller's BLPOP on
-- it (and on the lock's wake-up list, KEYS[5]) follows this script in the
-- same write. A wake-up pushed there lets that BLPOP return at once: when
-- the lock was granted, and when the holder's lease ends within ARGV[5] ms
-- (a holder that dies wakes nobody). A grant that finds a wake-up left on
-- the lock's list by the release before (nobody is blocked on a list that
-- holds one) leaves it there instead, for that BLPOP to take.
-- KEYS[5] .. '-flag' (release.lua): set by a release for 2 ms when it
-- pushed a wake-up onto KEYS[5]. When that wake-up is gone from the list
-- while the flag is set, a blocked waiter has just taken it, and its
-- SET NX, which the server runs at the end of this turn of its event loop,
-- has not run yet: a grant here would take the lock from under it. So the
-- grant is undone and the caller waits its turn.
-- Returns {1, fence} when granted; when not, {0, pttl of the holder's
-- lease (-2 when the lock is being handed to a woken waiter), how long the
-- waiters marker lasts from now (0 when ARGV[4] is 0)}. The marker's expiry
-- only ever moves later, so the caller knows every release until then
-- leaves a wake-up (see redislock_wait_wakeup.c).
local function wake_caller()
    if KEYS[4] then
        redis.call('rpush', KEYS[4], '1')
        redis.call('pexpire', KEYS[4], ARGV[2])
    end
end

local handing = false
if redis.call('set', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2]) then
    local pending = KEYS[5] and redis.call('llen', KEYS[5]) or 0
    if pending == 0 and KEYS[5] and redis.call('exists', KEYS[5] .. '-flag') == 1 then
        redis.call('del', KEYS[1])
        handing = true
    else
        local fence = 0
        if ARGV[3] == '1' then
            fence = redis.call('incr', KEYS[2])
        end
        if pending == 0 then
            wake_caller()
        end
        return {1, fence}
    end
end
local wait = tonumber(ARGV[4])
local marked = 0
if wait > 0 then
    marked = redis.call('pttl', KEYS[3])
    if marked < wait then
        redis.call('set', KEYS[3], '1', 'PX', wait)
        marked = wait
    end
end
local pttl = handing and -2 or redis.call('pttl', KEYS[1])
if pttl >= 0 and pttl < tonumber(ARGV[5] or '0') then
    wake_caller()
end
return {0, pttl, marked}
