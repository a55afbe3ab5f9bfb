-- Take ARGV[2] permits of a semaphore for the hold ARGV[1] ("<token>:<weight>")
-- with a lease of ARGV[4] ms, when the permits held now plus that weight fit
-- within the caller's own limit ARGV[3].
-- KEYS[1]: the holds, a sorted set of "<token>:<weight>" scored by the end of
-- each one's lease (server clock, ms). KEYS[2]: the permits the holds in
-- KEYS[1] take, kept in step with it (same expiry; gone with it). KEYS[3]:
-- the waiters marker; a caller that will wait ARGV[5] ms (> 0) keeps it
-- alive that long, so that a release knows to push wake-ups. KEYS[4]: the
-- wake-up list the waiters block on (BLPOP); kept no longer than the marker.
-- Holds whose lease ended are purged first (a dead holder's permits come
-- free at its own ttl); only the earliest lease end is read unless it has
-- passed. The holder's own live hold is renewed, whatever the limit. A grant
-- that leaves permits free while waiters are marked passes a wake-up on
-- (when none is pending), so that one release of several permits lets in as
-- many waiters as fit, one after the other.
-- Returns the permits free after a grant (>= 0); when not granted, -1 less
-- the ms until the earliest lease ends (0 when none is known): one integer,
-- as cheap to send and read as the lock's reply.
-- Commands: a grant on a semaphore with no hold runs 5 (TIME, ZRANGE of the
-- earliest lease, ZADD, PEXPIRE, SET of the permits with their expiry); a
-- grant beside live holds 6 or 7 (TIME, ZRANGE, GET, ZADD, PTTL, INCRBY, or
-- PEXPIRE and SET when the new lease outlives the keys); either adds one
-- PTTL of the marker when permits are left (and LLEN, RPUSH, PTTL, PEXPIRE
-- to pass a wake-up on while waiters are marked). A refusal runs 4 (TIME,
-- ZRANGE, GET, ZSCORE), a waiting caller's 5 to 8 (the marker's PTTL, and
-- SET, EXISTS, PEXPIRE to make it last longer). A purge, when the earliest
-- lease has ended, adds ZRANGEBYSCORE, ZREMRANGEBYSCORE, ZCARD and DEL or
-- DECRBY with a second ZRANGE. Nothing is done per permit: the limit and
-- the weights are numbers added and compared.
-- Complexity: O(log N + M), N the holds, M the expired holds purged (their
-- members are read once, then removed by one ZREMRANGEBYSCORE).
local t = redis.call('time')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local weight, limit, ttl = tonumber(ARGV[2]), tonumber(ARGV[3]), tonumber(ARGV[4])
local first = redis.call('zrange', KEYS[1], 0, 0, 'WITHSCORES')
local held = 0

if first[1] and tonumber(first[2]) <= now then
    local gone = 0
    for _, m in ipairs(redis.call('zrangebyscore', KEYS[1], '-inf', now)) do
        gone = gone + tonumber(string.match(m, ':(%d+)$'))
    end
    redis.call('zremrangebyscore', KEYS[1], '-inf', now)
    held = tonumber(redis.call('get', KEYS[2]) or '0') - gone
    if held <= 0 or redis.call('zcard', KEYS[1]) == 0 then
        redis.call('del', KEYS[1], KEYS[2])
        held = 0
        first = {}
    else
        redis.call('decrby', KEYS[2], gone)
        first = redis.call('zrange', KEYS[1], 0, 0, 'WITHSCORES')
    end
elseif first[1] then
    held = tonumber(redis.call('get', KEYS[2]) or '0')
end

local function free()
    return limit > held and limit - held or 0
end

-- (A number given to redis.call is sent as an integer up to 2^53.)
local lease = now + ttl
if held + weight <= limit then
    -- No hold left: new keys (a permits count left behind by a lost holds
    -- key is overwritten, not trusted). Otherwise the keys last as long as
    -- the longest lease.
    if not first[1] then
        redis.call('zadd', KEYS[1], lease, ARGV[1])
        redis.call('pexpire', KEYS[1], ttl)
        redis.call('set', KEYS[2], weight, 'PX', ttl)
    else
        local added = redis.call('zadd', KEYS[1], lease, ARGV[1])
        local outlives = redis.call('pttl', KEYS[1]) < ttl
        if outlives then
            redis.call('pexpire', KEYS[1], ttl)
        end
        if added == 0 then
            -- The holder's own hold, renewed: its permits are counted already.
            if outlives then
                redis.call('pexpire', KEYS[2], ttl)
            end
            return free()
        end
        if outlives then
            redis.call('set', KEYS[2], held + weight, 'PX', ttl)
        else
            redis.call('incrby', KEYS[2], weight)
        end
    end
    held = held + weight
    if held < limit and redis.call('pttl', KEYS[3]) > 0 and redis.call('llen', KEYS[4]) == 0 then
        redis.call('rpush', KEYS[4], '1')
        redis.call('pexpire', KEYS[4], redis.call('pttl', KEYS[3]))
    end
    return free()
end
if redis.call('zscore', KEYS[1], ARGV[1]) then
    redis.call('zadd', KEYS[1], 'XX', lease, ARGV[1])
    if redis.call('pttl', KEYS[1]) < ttl then
        redis.call('pexpire', KEYS[1], ttl)
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
