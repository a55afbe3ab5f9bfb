-- Fair mode compare-and-delete: remove KEYS[1] only while it holds the
-- owner token ARGV[1], then wake the waiter at the head of the queue KEYS[2]
-- by pushing onto its own wake-up list (KEYS[3] followed by its token), so
-- the lock goes to waiters in arrival order and one release wakes one
-- waiter. Returns 1 when the key was deleted, 0 when it was absent or held
-- by another token (which is left untouched).
if redis.call('get', KEYS[1]) == ARGV[1] then
    redis.call('del', KEYS[1])
    local head = redis.call('lindex', KEYS[2], 0)
    if head then
        redis.call('rpush', KEYS[3] .. head, '1')
        redis.call('pexpire', KEYS[3] .. head, ARGV[2])
    end
    return 1
end
return 0
