-- Fair mode: token ARGV[1] stops waiting. Removes it from the queue KEYS[2]
-- and its expiry set KEYS[3], drops its wake-up list (KEYS[4] followed by
-- the token), and, when the lock KEYS[1] is free, passes a wake-up it may
-- have received on to the waiter now at the head. Returns 1.
redis.call('lrem', KEYS[2], 1, ARGV[1])
redis.call('zrem', KEYS[3], ARGV[1])
redis.call('del', KEYS[4] .. ARGV[1])
if redis.call('exists', KEYS[1]) == 0 then
    local head = redis.call('lindex', KEYS[2], 0)
    if head then
        redis.call('rpush', KEYS[4] .. head, '1')
        redis.call('pexpire', KEYS[4] .. head, ARGV[2])
    end
end
return 1
