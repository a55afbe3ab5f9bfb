-- Compare-and-delete: remove KEYS[1] only while it still holds the owner
-- token ARGV[1]; with ARGV[2] = '1' (forceRelease, an operator's tool),
-- whoever holds it. While waiters are marked (KEYS[2] has a pttl: the
-- waiters marker, or for forceRelease of a fair lock its queue), push one
-- wake-up onto KEYS[3] for one of them to pop, lasting as long as the
-- marker. At most one wake-up is pending, so a release wakes one waiter, not
-- all. (The woken waiter dates its lease by its own clock: nothing here
-- carries time.) A woken waiter's SET NX runs at the end of this turn of the
-- server's event loop; until then the lock is free, with the marker alive
-- and no wake-up left, which acquire.lua reads as handed over: it grants it
-- to nobody else.
-- KEYS[4] and KEYS[5], when given: the readers' waiters marker and wake-up
-- list (read_acquire.lua). Readers held back mark KEYS[2] too, so they are
-- looked for only while it is marked: a release that finds nobody waiting
-- does what it did before shared holds existed (GET, DEL, PTTL). Readers
-- held back get one wake-up, and each reader let in wakes the next. KEYS[6],
-- when given and forced: the readers' shares, deleted too (forceRelease ends
-- shared holds).
-- Returns 1 when the key was deleted, 0 when it was absent or (unless
-- forced) held by another token, which is left untouched.
-- Complexity: O(1).
local held = redis.call('get', KEYS[1])
if held and (held == ARGV[1] or ARGV[2] == '1') then
    redis.call('del', KEYS[1])
    if KEYS[6] and ARGV[2] == '1' then
        redis.call('del', KEYS[6])
    end
    local waiting = redis.call('pttl', KEYS[2])
    if waiting > 0 then
        if redis.call('rpush', KEYS[3], '1') > 1 then
            redis.call('lpop', KEYS[3])
        end
        redis.call('pexpire', KEYS[3], waiting)
        waiting = KEYS[5] and redis.call('pttl', KEYS[4]) or 0
        if waiting > 0 then
            if redis.call('rpush', KEYS[5], '1') > 1 then
                redis.call('lpop', KEYS[5])
            end
            redis.call('pexpire', KEYS[5], waiting)
        end
    end
    return 1
end
return 0
