-- forceRelease: delete the lock KEYS[1] whoever holds it (an operator's
-- tool). While waiters are marked (KEYS[2] has a pttl: the waiters marker,
-- or the fair queue), push one wake-up onto KEYS[3] as a release does, with
-- its 2 ms flag (see release.lua).
-- Returns 1 when a key was deleted, 0 when there was none.
if redis.call('del', KEYS[1]) == 0 then
    return 0
end
local waiting = redis.call('pttl', KEYS[2])
if waiting > 0 then
    if redis.call('rpush', KEYS[3], '1') > 1 then
        redis.call('lpop', KEYS[3])
    end
    redis.call('pexpire', KEYS[3], waiting)
    redis.call('set', KEYS[3] .. '-flag', '1', 'PX', 2)
end
return 1
