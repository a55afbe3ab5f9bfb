-- Fair mode: runs right after a waiter's BLPOP on its wake-up list KEYS[3]
-- returns (pipelined behind it). When a release handed the lock KEYS[1] to
-- this waiter (token ARGV[1]), the lease is renewed to its ttl ARGV[2] and
-- the hand-over marker KEYS[4] cleared. When the lock was handed to another
-- waiter of the same list (KEYS[4] still names one, with slot ARGV[4]) and
-- no wake-up is left in the list, one is put back, so that the next waiter
-- blocked on the list is woken in turn until the new holder is: the server
-- passes it on with no round trip to a client. KEYS[2]: the fence counter,
-- read when ARGV[3] is '1'.
-- Returns {1, fence} when the lock is ours, {0} when not.
if redis.call('get', KEYS[1]) == ARGV[1] then
    redis.call('pexpire', KEYS[1], ARGV[2])
    redis.call('del', KEYS[4])
    local fence = 0
    if ARGV[3] == '1' then
        fence = tonumber(redis.call('get', KEYS[2]) or '0')
    end
    return {1, fence}
end
local target = redis.call('get', KEYS[4])
local pending = redis.call('pttl', KEYS[4])
if target and pending > 0 and string.match(target, ':(%d+)$') == ARGV[4] and redis.call('llen', KEYS[3]) == 0 then
    redis.call('rpush', KEYS[3], '1')
    redis.call('pexpire', KEYS[3], pending)
end
return {0}
