-- Take the lock KEYS[1] for owner token ARGV[1] with a lease of ARGV[2] ms.
-- KEYS[2]: the lock's fence counter, incremented on every grant when ARGV[3]
-- is '1'. KEYS[3]: the lock's waiters marker; a caller that will wait
-- ARGV[4] ms (> 0) for a release keeps it alive that long, so the release
-- knows to wake a waiter.
-- Returns {1, fence} when granted; when not, {0, pttl of the holder's
-- lease}.
if redis.call('set', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2]) then
    local fence = 0
    if ARGV[3] == '1' then
        fence = redis.call('incr', KEYS[2])
    end
    return {1, fence}
end
local wait = tonumber(ARGV[4])
if wait > 0 and redis.call('pttl', KEYS[3]) < wait then
    redis.call('set', KEYS[3], '1', 'PX', wait)
end
return {0, redis.call('pttl', KEYS[1])}
