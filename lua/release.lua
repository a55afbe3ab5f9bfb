-- Compare-and-delete: remove KEYS[1] only while it still holds the owner
-- token ARGV[1]. While waiters are marked (KEYS[2]), push one wake-up onto
-- KEYS[3] for one of them to pop: the server's clock in ms, by which the
-- woken waiter dates the lease it takes next. At most one wake-up is
-- pending (the newest), so a release wakes one waiter, not all.
-- Returns 1 when the key was deleted, 0 when it was absent or held by another
-- token (which is left untouched).
if redis.call('get', KEYS[1]) == ARGV[1] then
    redis.call('del', KEYS[1])
    local waiting = redis.call('pttl', KEYS[2])
    if waiting > 0 then
        local t = redis.call('time')
        local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
        if redis.call('rpush', KEYS[3], now) > 1 then
            redis.call('lpop', KEYS[3])
        end
        redis.call('pexpire', KEYS[3], waiting)
    end
    return 1
end
return 0
