-- Take ARGV[2] permits of a semaphore for the hold ARGV[1] ("<token>:<weight>")
-- with a lease of ARGV[4] ms, when the permits held now plus that weight fit
-- within the caller's own limit ARGV[3].
-- KEYS[1]: the holds, a sorted set of "<token>:<weight>" scored by the end of
-- each one's lease (server clock, ms): each member is one permit. KEYS[2]:
-- the permits the weighted holds take beyond their first, the sum of
-- weight - 1 over the holds of weight > 1 (absent when there is none), so
-- that the permits held are ZCARD of KEYS[1] plus KEYS[2], and a hold of
-- weight 1 never touches KEYS[2] (its release is a plain ZREM, see
-- engine/semaphore.c). KEYS[2] lasts as long as the weighted leases at least
-- (its expiry is set to KEYS[1]'s when a weighted hold is granted), never
-- longer than KEYS[1]. KEYS[3]: the waiters marker; a caller that will wait
-- ARGV[5] ms (> 0) keeps it alive that long, so that a release knows to push
-- wake-ups. KEYS[4]: the wake-up list the waiters block on (BLPOP); kept no
-- longer than the marker. ARGV[6]: '1' when this attempt comes right behind
-- the caller's BLPOP on KEYS[4] (it may have taken a wake-up).
-- Holds whose lease ended are purged first (a dead holder's permits come
-- free at its own ttl); only the earliest lease end is read unless it has
-- passed. The holder's own live hold is renewed, whatever the limit.
-- Wake-ups: a release pushes one per permit it frees (at most 16 pending).
-- A grant behind a BLPOP may have taken one of them: when it leaves permits
-- free while waiters are marked, it passes a wake-up on (when none is
-- pending), so that one release of several permits lets in as many waiters
-- as fit, one after the other, and the 16 pending do not strand the rest.
-- Any other grant took no wake-up: the pending ones, and the waiters they
-- are for, are as they were without it (it only leaves fewer permits for
-- them), so it does not look at the marker.
-- Returns the permits free after a grant (>= 0); when not granted, -1 less
-- the ms until the earliest lease ends (0 when none is known): one integer,
-- as cheap to send and read as the lock's reply.
-- Commands: a grant on a semaphore with no hold runs 4 (TIME, ZRANGE of the
-- earliest lease, ZADD, PEXPIRE), a weighted one 5 (SET of KEYS[2] with its
-- expiry); a grant beside live holds 6 (TIME, ZRANGE, ZCARD, GET, ZADD,
-- PTTL) plus PEXPIRE when the new lease outlives the keys, plus SET of
-- KEYS[2] when weighted; behind a BLPOP, one PTTL of the marker when
-- permits are left (and LLEN, RPUSH, PEXPIRE to pass a wake-up on). A
-- renewal of the caller's own hold 6 or 7 (8 or 9 weighted). A refusal runs
-- 5 (TIME, ZRANGE, ZCARD, GET, ZSCORE), a waiting caller's 6 to 9 (the
-- marker's PTTL, and SET, EXISTS, PEXPIRE to make it last longer). A
-- purge, when the earliest lease has ended, adds ZRANGEBYSCORE,
-- ZREMRANGEBYSCORE, ZCARD and DEL of KEYS[2] when no hold is left, or GET,
-- DECRBY or DEL when expired weighted holds are purged, with a second
-- ZRANGE. Nothing is done per permit: the limit and the weights are numbers
-- added and compared.
-- Complexity: O(log N + M), N the holds, M the expired holds purged (their
-- members are read once, then removed by one ZREMRANGEBYSCORE).
local t = redis.call('time')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local weight, limit, ttl = tonumber(ARGV[2]), tonumber(ARGV[3]), tonumber(ARGV[4])
local first = redis.call('zrange', KEYS[1], 0, 0, 'WITHSCORES')
local held, extra = 0, 0

if first[1] and tonumber(first[2]) <= now then
    local gone = 0
    for _, m in ipairs(redis.call('zrangebyscore', KEYS[1], '-inf', now)) do
        gone = gone + tonumber(string.match(m, ':(%d+)$')) - 1
    end
    redis.call('zremrangebyscore', KEYS[1], '-inf', now)
    held = redis.call('zcard', KEYS[1])
    if held == 0 then
        redis.call('del', KEYS[2])
        first = {}
    else
        extra = tonumber(redis.call('get', KEYS[2]) or '0') - gone
        if extra <= 0 then
            if gone > 0 then
                redis.call('del', KEYS[2])
            end
            extra = 0
        elseif gone > 0 then
            redis.call('decrby', KEYS[2], gone)
        end
        first = redis.call('zrange', KEYS[1], 0, 0, 'WITHSCORES')
    end
elseif first[1] then
    held = redis.call('zcard', KEYS[1])
    extra = tonumber(redis.call('get', KEYS[2]) or '0')
end
held = held + extra

local function free()
    return limit > held and limit - held or 0
end

-- (A number given to redis.call is sent as an integer up to 2^53.)
local lease = now + ttl
if held + weight <= limit then
    if not first[1] then
        -- No hold left: new keys. (A KEYS[2] left behind by a lost KEYS[1],
        -- a DEL or an eviction of it alone, is overwritten by a weighted
        -- grant; until then it only counts permits as taken, never as free,
        -- and it ends with the weighted leases it counted.)
        redis.call('zadd', KEYS[1], lease, ARGV[1])
        redis.call('pexpire', KEYS[1], ttl)
        if weight > 1 then
            redis.call('set', KEYS[2], weight - 1, 'PX', ttl)
        end
    else
        local added = redis.call('zadd', KEYS[1], lease, ARGV[1])
        local keep = redis.call('pttl', KEYS[1])
        if keep < ttl then
            redis.call('pexpire', KEYS[1], ttl)
            keep = ttl
        end
        if added == 0 then
            -- The holder's own hold, renewed: its permits are counted already.
            if weight > 1 and redis.call('pttl', KEYS[2]) < ttl then
                redis.call('pexpire', KEYS[2], ttl)
            end
            return free()
        end
        if weight > 1 then
            redis.call('set', KEYS[2], extra + weight - 1, 'PX', keep)
        end
    end
    held = held + weight
    if ARGV[6] == '1' and held < limit and redis.call('pttl', KEYS[3]) > 0
        and redis.call('llen', KEYS[4]) == 0 then
        redis.call('rpush', KEYS[4], '1')
        redis.call('pexpire', KEYS[4], redis.call('pttl', KEYS[3]))
    end
    return free()
end
if redis.call('zscore', KEYS[1], ARGV[1]) then
    redis.call('zadd', KEYS[1], 'XX', lease, ARGV[1])
    if redis.call('pttl', KEYS[1]) < ttl then
        redis.call('pexpire', KEYS[1], ttl)
    end
    if weight > 1 and redis.call('pttl', KEYS[2]) < ttl then
        redis.call('pexpire', KEYS[2], ttl)
    end
    return free()
end
local wait = tonumber(ARGV[5])
if wait > 0 and redis.call('pttl', KEYS[3]) < wait then
    redis.call('set', KEYS[3], '1', 'PX', wait)
    if redis.call('exists', KEYS[4]) == 1 then
        redis.call('pexpire', KEYS[4], wait)
    end
end
return -1 - (first[2] and tonumber(first[2]) - now or 0)
