-- Take the lock KEYS[1] for owner token ARGV[1] with a lease of ARGV[2] ms.
-- KEYS[2]: the lock's fence counter, incremented on every grant when ARGV[3]
-- is '1'. KEYS[3]: the lock's waiters marker; a caller that will wait
-- ARGV[4] ms (> 0) for a release keeps it alive that long, so the release
-- knows to wake a waiter.
-- KEYS[4], given by a caller that will wait: the lock's wake-up list
-- (release.lua). While the lock is marked, every release leaves a wake-up
-- there, and a waiter's BLPOP that takes one has its SET NX right behind it.
-- So a free lock with the marker alive and no wake-up left has most likely
-- just been handed to a woken waiter whose SET NX, which the server runs at
-- the end of this turn of its event loop, has not run yet: a grant here would
-- take the lock from under it. The grant is undone and the caller, told so,
-- waits its turn: it blocks briefly, and the woken waiter's release wakes it
-- (one whose block was not timed by a lease, ARGV[5] > 0, is woken at once
-- instead, as for a lease that ends now, and the SET NX behind its BLPOP may
-- then come first). That state can also outlast a hand-over: a lease that ran
-- out, or a wake-up taken by a BLPOP whose SET found the lock held. So the
-- first caller to find it notes when (KEYS[4] .. '-seen', in the same hash
-- slot, for a second, so that a caller slow to come back still finds it), and
-- from 2 ms later the state is taken for what it is, a free lock. (Its one
-- key a script names itself: only this rare case writes it, not the
-- releases.) Marking the lock for longer extends the list's expiry with the
-- marker's, so that a wake-up left there lasts as long as the marker.
-- KEYS[5], when given: the caller's own wake-up list. The caller's BLPOP on
-- it (and on the lock's, KEYS[4]) follows this script in the same write. A
-- wake-up pushed there lets that BLPOP return at once: when the lock was
-- granted, and when the holder's lease ends within ARGV[5] ms (a holder that
-- dies wakes nobody). A grant that finds a wake-up left on the lock's list
-- leaves it there instead, for that BLPOP to take.
-- Returns {1, fence} when granted; when not, {0, pttl of the holder's
-- lease (-2 when the lock is being handed to a woken waiter), how long the
-- waiters marker lasts from now (0 when ARGV[4] is 0)}. The marker's expiry
-- only ever moves later, so the caller knows every release until then
-- leaves a wake-up (see engine/wait_wakeup.c).
local function wake_caller()
    if KEYS[5] then
        redis.call('rpush', KEYS[5], '1')
        redis.call('pexpire', KEYS[5], ARGV[2])
    end
end

local handing = false
if redis.call('set', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2]) then
    local pending = KEYS[4] and redis.call('llen', KEYS[4]) or 0
    if pending == 0 and KEYS[4] and redis.call('pttl', KEYS[3]) > 0 then
        local seen = redis.call('pttl', KEYS[4] .. '-seen')
        if seen < 0 then
            redis.call('set', KEYS[4] .. '-seen', '1', 'PX', 1000)
        end
        handing = seen < 0 or seen > 998
    end
    if handing then
        redis.call('del', KEYS[1])
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
    -- Held shared (read_acquire.lua): mark a writer as waiting, for 2 s at
    -- most (the next attempt renews it), so that no new share is granted
    -- meanwhile and the readers there drain.
    local held = redis.call('get', KEYS[1])
    if held and string.byte(held, 1) == 42 then
        local t = redis.call('time')
        local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
        local at = string.find(held, '@', 2, true)
        redis.call('set', KEYS[1], string.sub(held, 1, (at or 0) - 1) .. '@' .. (now + math.min(wait, 2000)),
            'KEEPTTL')
    end
    marked = redis.call('pttl', KEYS[3])
    if marked < wait then
        redis.call('set', KEYS[3], '1', 'PX', wait)
        if KEYS[4] then
            redis.call('pexpire', KEYS[4], wait)
        end
        marked = wait
    end
end
local pttl = handing and -2 or redis.call('pttl', KEYS[1])
local soon = tonumber(ARGV[5] or '0')
if soon > 0 and (handing or (pttl >= 0 and pttl < soon)) then
    wake_caller()
end
return {0, pttl, marked}
