-- Fair mode compare-and-hand-over. KEYS: 1 the lock, 2 its fence counter,
-- 3 the queue, 4 the places' expiries, 5 the waiters' wake-up list, 6 the
-- token the lock was handed to (see acquire_fair.lua). ARGV: 1 our token,
-- 2 our ttl (which names our place), 3 '1' when fenced, 4 '1' when we also
-- leave the queue (a waiter giving up), 5 the provisional lease in ms.
-- When KEYS[1] holds our token, the lock passes straight to the first
-- waiter whose place has not expired: the key gets that waiter's token
-- with a provisional lease (its own ttl, at most ARGV[5] ms, so that a
-- waiter that died costs no more), the fence counter moves on, KEYS[6]
-- names the new holder, and one wake-up goes onto KEYS[5]. Waiters block
-- on that list; the one that pops it claims the lock if it is the new
-- holder, or passes the wake-up on (claim_fair.lua). With no live waiter
-- the key is deleted.
-- Returns 1 when the key held our token, 0 when not (it is left untouched).
if ARGV[4] == '1' then
    local member = ARGV[1] .. ':' .. ARGV[2]
    redis.call('lrem', KEYS[3], 1, member)
    redis.call('zrem', KEYS[4], member)
end
if redis.call('get', KEYS[1]) ~= ARGV[1] then
    return 0
end
redis.call('del', KEYS[6])
local t = redis.call('time')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local head = redis.call('lpop', KEYS[3])
while head do
    local expires = redis.call('zscore', KEYS[4], head)
    redis.call('zrem', KEYS[4], head)
    if expires and tonumber(expires) > now then
        local token, ttl = string.match(head, '^(.*):(%d+)$')
        local lease = math.min(tonumber(ttl), tonumber(ARGV[5]))
        redis.call('set', KEYS[1], token, 'PX', lease)
        if ARGV[3] == '1' then
            redis.call('incr', KEYS[2])
        end
        redis.call('set', KEYS[6], token, 'PX', lease)
        if redis.call('llen', KEYS[5]) == 0 then
            redis.call('rpush', KEYS[5], '1')
        end
        redis.call('pexpire', KEYS[5], lease)
        return 1
    end
    head = redis.call('lpop', KEYS[3])
end
redis.call('del', KEYS[1])
return 1
