-- Take a shared (read) hold of the lock KEYS[1] for owner token ARGV[1] with
-- a lease of ARGV[2] ms; with ARGV[3] > 0 (the rest of the caller's wait, ms)
-- a refusal marks readers as waiting that long.
-- KEYS[2]: the readers, a sorted set of token => end of lease (ms on this
-- server's clock, TIME). KEYS[3]: the readers' waiters marker. KEYS[4]: the
-- readers' wake-up list. KEYS[5], given by a caller that will wait: the
-- lock's waiters marker (release.lua), which a refusal marks too, so that
-- the release that lets readers in finds them with the check it makes for
-- any waiter.
-- While readers hold it, KEYS[1] holds '*' (no token is: tokens are hex),
-- then the token of the one reader when there is only one (its lease is the
-- key's own expiry, KEYS[2] is empty), then '@' .. ms while a writer waits
-- (until then, by this server's clock: set by acquire.lua and
-- read_promote.lua). With more than one reader the key has the expiry of the
-- latest lease in KEYS[2], so a writer's SET NX fails while any reader's
-- lease lives, and each reader's share ends at its own lease.
-- Granted: on a free lock; on the lock held by ARGV[1] exclusively (demoted
-- to a share); a new share while no writer waits; a renewal of our own share
-- always. A grant while readers wait leaves one wake-up on KEYS[4] (the next
-- waiting reader's grant leaves the next: they come in one after another);
-- on a free lock, only a caller that waits looks for them.
-- A refusal empties KEYS[4]: no reader could use a wake-up left there.
-- Returns {1, 1} granted on a free lock (the caller's next attempt may be a
-- plain SET NX, the first command here), {1, 0} granted otherwise, {0, ms
-- to block at most} refused.
-- Complexity: O(1) on a free lock (SET NX, PTTL) and for the one reader's
-- renewal; otherwise O(log N + M) for N live shares and M expired ones
-- purged (each expired share is purged once: amortised O(log N)).
local token = ARGV[1]

if redis.call('set', KEYS[1], '*' .. token, 'NX', 'PX', ARGV[2]) then
    -- Free: ours alone. Only a caller that waits (one woken, maybe) passes
    -- a wake-up on to the readers held back: the release that freed the
    -- lock woke one, and the chain goes through them.
    if ARGV[3] ~= '0' then
        local waiting = redis.call('pttl', KEYS[3])
        if waiting > 0 and redis.call('llen', KEYS[4]) == 0 then
            redis.call('rpush', KEYS[4], '1')
            redis.call('pexpire', KEYS[4], waiting)
        end
    end
    return {1, 1}
end
local function granted()
    local waiting = redis.call('pttl', KEYS[3])
    if waiting > 0 and redis.call('llen', KEYS[4]) == 0 then
        redis.call('rpush', KEYS[4], '1')
        redis.call('pexpire', KEYS[4], waiting)
    end
    return {1, 0}
end

local held = redis.call('get', KEYS[1])
local block
if held == token then
    -- Ours exclusively: our share alone.
    redis.call('del', KEYS[2])
    redis.call('set', KEYS[1], '*' .. token, 'PX', ARGV[2])
    return granted()
end
if held and string.byte(held, 1) == 42 then
    local at = string.find(held, '@', 2, true)
    local one = string.sub(held, 2, (at or 0) - 1)
    if one == token then
        -- Our share, alone: renewed (a writer's mark stays).
        redis.call('set', KEYS[1], held, 'PX', ARGV[2])
        return granted()
    end
    local t = redis.call('time')
    local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
    local writer = at and tonumber(string.sub(held, at + 1))
    if writer and writer <= now then
        writer = nil
    end
    if one ~= '' then
        if not writer then
            -- Another reader, alone: its share goes into the set, with its lease.
            redis.call('zadd', KEYS[2], now + redis.call('pttl', KEYS[1]), one)
        end
    else
        redis.call('zremrangebyscore', KEYS[2], '-inf', now)
    end
    if not writer or (one == '' and redis.call('zscore', KEYS[2], token)) then
        redis.call('zadd', KEYS[2], now + tonumber(ARGV[2]), token)
        local last = redis.call('zrange', KEYS[2], -1, -1, 'WITHSCORES')
        local px = math.max(tonumber(last[2]) - now, 1)
        redis.call('set', KEYS[1], writer and ('*@' .. writer) or '*', 'PX', px)
        redis.call('pexpire', KEYS[2], px)
        return granted()
    end
    block = writer - now
else
    block = held and redis.call('pttl', KEYS[1]) or 0
end
redis.call('del', KEYS[4])
local wait = tonumber(ARGV[3])
if wait > 0 then
    if redis.call('pttl', KEYS[3]) < wait then
        redis.call('set', KEYS[3], '1', 'PX', wait)
    end
    if KEYS[5] and redis.call('pttl', KEYS[5]) < wait then
        redis.call('set', KEYS[5], '1', 'PX', wait)
    end
end
return {0, block}
