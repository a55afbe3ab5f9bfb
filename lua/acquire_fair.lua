-- Fair mode: take the lock KEYS[1] for token ARGV[1] (lease ARGV[2] ms) only
-- when it is free and no live waiter queued before us. KEYS[2]: the fence
-- counter (incremented when ARGV[3] is '1'). KEYS[3]: the queue of waiters,
-- '<token>:<ttl>:<slot>', in arrival order; KEYS[4]: when each place
-- expires (a sorted set of server-clock ms). KEYS[5]: the waiter a release
-- handed the lock to (release_fair.lua); KEYS[6]: numbers the waiters as
-- they join; KEYS[7..14]: the wake-up lists, waiter n blocking on list
-- n mod 8 (its slot), so that the waiters on one list are eight places
-- apart in the queue. A caller that will wait passes ARGV[4] > 0: it joins
-- the queue (or keeps its place) for that many ms; a place not renewed in
-- time is skipped. ARGV[5]: the caller's slot, -1 before it joined.
-- A release may have handed the lock to us already: then the lease is
-- renewed, the wake-up meant for us is spent, and the call succeeds.
-- Returns {1, fence, lease ms} when the lock is ours, {0, the holder's pttl,
-- our slot (-1: not queued)} when not. (The server's clock orders places
-- in the queue only: the caller dates its lease by its own clock.)
local t = redis.call('time')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local slot = tonumber(ARGV[5])
local member = ARGV[1] .. ':' .. ARGV[2] .. ':' .. slot
local holder = redis.call('get', KEYS[1])
if holder == ARGV[1] then
    redis.call('pexpire', KEYS[1], ARGV[2])
    if slot >= 0 and redis.call('get', KEYS[5]) == member then
        redis.call('del', KEYS[5], KEYS[7 + slot])
    end
    local fence = 0
    if ARGV[3] == '1' then
        fence = tonumber(redis.call('get', KEYS[2]) or '0')
    end
    return {1, fence, tonumber(ARGV[2])}
end
if not holder then
    local head = redis.call('lindex', KEYS[3], 0)
    while head and head ~= member do
        local expires = redis.call('zscore', KEYS[4], head)
        if expires and tonumber(expires) > now then
            break
        end
        redis.call('lpop', KEYS[3])
        redis.call('zrem', KEYS[4], head)
        head = redis.call('lindex', KEYS[3], 0)
    end
    if not head or head == member then
        redis.call('set', KEYS[1], ARGV[1], 'PX', ARGV[2])
        if head then
            redis.call('lpop', KEYS[3])
            redis.call('zrem', KEYS[4], member)
        end
        local fence = 0
        if ARGV[3] == '1' then
            fence = redis.call('incr', KEYS[2])
        end
        return {1, fence, tonumber(ARGV[2])}
    end
end
local stay = tonumber(ARGV[4])
if stay > 0 then
    if slot < 0 then
        slot = redis.call('incr', KEYS[6]) % 8
        redis.call('pexpire', KEYS[6], stay)
        member = ARGV[1] .. ':' .. ARGV[2] .. ':' .. slot
    end
    if redis.call('zadd', KEYS[4], now + stay, member) == 1 then
        redis.call('rpush', KEYS[3], member)
    end
    redis.call('pexpire', KEYS[3], stay)
    redis.call('pexpire', KEYS[4], stay)
end
return {0, redis.call('pttl', KEYS[1]), slot}
