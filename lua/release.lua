-- Compare-and-delete: remove KEYS[1] only while it still holds the owner
-- token ARGV[1]. While waiters are marked (KEYS[2]), push one wake-up onto
-- KEYS[3] for one of them to pop. At most one wake-up is pending, so a
-- release wakes one waiter, not all. (The woken waiter dates its lease by its
-- own clock: nothing here carries time.) Beside the wake-up, its flag (the
-- list's name with '-flag', in the same hash slot) is set for 2 ms: until
-- the woken waiter's SET NX has run (at the end of this turn of the
-- server's event loop), acquire.lua does not grant the lock to another
-- waiter. (It is the one key a script names itself, so that a release,
-- which nearly always finds nobody waiting, sends no more than it did.)
-- Returns 1 when the key was deleted, 0 when it was absent or held by another
-- token (which is left untouched).
if redis.call('get', KEYS[1]) == ARGV[1] then
    redis.call('del', KEYS[1])
    local waiting = redis.call('pttl', KEYS[2])
    if waiting > 0 then
        if redis.call('rpush', KEYS[3], '1') > 1 then
            redis.call('lpop', KEYS[3])
        end
        redis.call('pexpire', KEYS[3], waiting)
        redis.call('set', KEYS[3] .. '-flag', '1', 'PX', 2)
    end
    return 1
end
return 0
