-- Take a shared (read) hold of the lock KEYS[1] for owner token ARGV[1] with
-- a lease of ARGV[2] ms; with ARGV[3] > 0 (the rest of the caller's wait, ms)
-- a refusal marks readers as waiting that long.
-- KEYS[2]: the readers, a sorted set of token => end of lease (ms on this
-- server's clock, TIME). KEYS[3]: the readers' waiters marker. KEYS[4]: the
-- readers' wake-up list.
-- While readers hold it, KEYS[1] holds '*' (no token is: tokens are hex), or
-- '*' .. ms while a writer waits (until then, by this server's clock: set by
-- acquire.lua and promote.lua), with the expiry of the latest reader's lease;
-- so a writer's SET NX fails while any reader's lease lives, and each
-- reader's share ends at its own lease.
-- Granted: on a free lock; on the lock held by ARGV[1] exclusively (demoted
-- to a share); a new share while no writer waits; a renewal of our own share
-- always. A grant while readers wait leaves one wake-up on KEYS[4] (the next
-- waiting reader's grant leaves the next: they come in one after another).
-- A refusal empties KEYS[4]: no reader could use a wake-up left there.
-- Returns {1, 0} granted, {0, ms to block at most} refused.
-- Complexity: O(log N + M) for N live shares and M expired ones purged
-- (each expired share is purged once: amortised O(log N)).
local t = redis.call('time')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local ttl = tonumber(ARGV[2])

local function grant(value)
    redis.call('zadd', KEYS[2], now + ttl, ARGV[1])
    local last = redis.call('zrange', KEYS[2], -1, -1, 'WITHSCORES')
    local px = math.max(tonumber(last[2]) - now, 1)
    if value then
        redis.call('set', KEYS[1], value, 'PX', px)
    else
        redis.call('pexpire', KEYS[1], px)
    end
    redis.call('pexpire', KEYS[2], px)
    local waiting = redis.call('pttl', KEYS[3])
    if waiting > 0 and redis.call('llen', KEYS[4]) == 0 then
        redis.call('rpush', KEYS[4], '1')
        redis.call('pexpire', KEYS[4], waiting)
    end
    return {1, 0}
end

local held = redis.call('get', KEYS[1])
local block
if not held or held == ARGV[1] then
    -- Free, or ours exclusively: a share (our exclusive hold becomes one).
    redis.call('del', KEYS[2])
    return grant('*')
end
if string.byte(held, 1) == 42 then
    redis.call('zremrangebyscore', KEYS[2], '-inf', now)
    local writer = tonumber(string.sub(held, 2))
    if redis.call('zscore', KEYS[2], ARGV[1]) then
        return grant(nil)
    end
    if not writer or writer <= now then
        return grant(writer and '*' or nil)
    end
    block = writer - now
else
    block = redis.call('pttl', KEYS[1])
end
redis.call('del', KEYS[4])
local wait = tonumber(ARGV[3])
if wait > 0 and redis.call('pttl', KEYS[3]) < wait then
    redis.call('set', KEYS[3], '1', 'PX', wait)
end
return {0, block}
