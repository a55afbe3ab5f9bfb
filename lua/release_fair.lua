-- Fair mode compare-and-hand-over. KEYS as for acquire_fair.lua: 1 the lock,
-- 2 its fence counter, 3 the queue, 4 the places' expiries, 5 the waiter
-- the lock was handed to, 6 the waiters' numbering, 7..14 the wake-up
-- lists. ARGV: 1 our token, 2 our ttl, 3 '1' when fenced, 4 '1' when we
-- also leave the queue (a waiter giving up), 5 the provisional lease in ms,
-- 6 our slot (which with token and ttl names our place; -1: none).
-- When KEYS[1] holds our token, the lock passes straight to the first
-- waiter whose place has not expired: the key gets that waiter's token
-- with a provisional lease (its own ttl, at most ARGV[5] ms, so that a
-- waiter that died costs no more), the fence counter moves on, KEYS[5]
-- names the new holder, and one wake-up goes onto the new holder's list.
-- The waiter that pops it claims the lock if it is the new holder, or
-- passes the wake-up on (claim_fair.lua). With no live waiter the key is
-- deleted. The numbering starts again once the queue is empty.
-- Returns 1 when the key held our token, 0 when not (it is left untouched).
if ARGV[4] == '1' and tonumber(ARGV[6]) >= 0 then
    local member = ARGV[1] .. ':' .. ARGV[2] .. ':' .. ARGV[6]
    redis.call('lrem', KEYS[3], 1, member)
    redis.call('zrem', KEYS[4], member)
end
if redis.call('get', KEYS[1]) ~= ARGV[1] then
    return 0
end
local t = redis.call('time')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local head = redis.call('lpop', KEYS[3])
while head do
    local expires = redis.call('zscore', KEYS[4], head)
    redis.call('zrem', KEYS[4], head)
    if expires and tonumber(expires) > now then
        local token, ttl, slot = string.match(head, '^(.*):(%d+):(%d+)$')
        local lease = math.min(tonumber(ttl), tonumber(ARGV[5]))
        local wake = KEYS[7 + tonumber(slot)]
        redis.call('set', KEYS[1], token, 'PX', lease)
        if ARGV[3] == '1' then
            redis.call('incr', KEYS[2])
        end
        -- Overwrites the name of the waiter the last hand-over went to.
        redis.call('set', KEYS[5], head, 'PX', lease)
        -- One wake-up on the list at most: a second one is taken back.
        if redis.call('rpush', wake, '1') > 1 then
            redis.call('rpop', wake)
        end
        redis.call('pexpire', wake, lease)
        if redis.call('llen', KEYS[3]) == 0 then
            redis.call('del', KEYS[6])
        end
        return 1
    end
    head = redis.call('lpop', KEYS[3])
end
redis.call('del', KEYS[1], KEYS[5], KEYS[6])
return 1
