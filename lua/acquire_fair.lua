-- Fair mode: take the lock KEYS[1] for token ARGV[1] (lease ARGV[2] ms) only
-- when it is free and nobody queued before us. KEYS[2]: the fence counter
-- (incremented when ARGV[3] is '1'). KEYS[3]: the queue of waiting tokens in
-- arrival order; KEYS[4]: when each waiter's place expires (a sorted set of
-- server-clock ms). KEYS[5]: prefix of the waiters' wake-up lists.
-- A caller that will wait passes ARGV[4] > 0: it joins the queue (or keeps
-- its place) for that many ms; waiters that stop renewing are dropped.
-- Returns {1, fence} when granted, {0, pttl of the holder's lease} when not.
local t = redis.call('time')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
for _, gone in ipairs(redis.call('zrangebyscore', KEYS[4], '-inf', now)) do
    redis.call('lrem', KEYS[3], 1, gone)
    redis.call('zrem', KEYS[4], gone)
end
local head = redis.call('lindex', KEYS[3], 0)
if redis.call('exists', KEYS[1]) == 0 and (not head or head == ARGV[1]) then
    redis.call('set', KEYS[1], ARGV[1], 'PX', ARGV[2])
    if head then
        redis.call('lpop', KEYS[3])
        redis.call('zrem', KEYS[4], ARGV[1])
        redis.call('del', KEYS[5] .. ARGV[1])
    end
    local fence = 0
    if ARGV[3] == '1' then
        fence = redis.call('incr', KEYS[2])
    end
    return {1, fence}
end
local stay = tonumber(ARGV[4])
if stay > 0 then
    if not redis.call('zscore', KEYS[4], ARGV[1]) then
        redis.call('rpush', KEYS[3], ARGV[1])
    end
    redis.call('zadd', KEYS[4], now + stay, ARGV[1])
    local keep = redis.call('pttl', KEYS[3])
    if keep < stay then
        redis.call('pexpire', KEYS[3], stay)
        redis.call('pexpire', KEYS[4], stay)
    end
end
return {0, redis.call('pttl', KEYS[1])}
