-- Take ARGV[2] permits of a semaphore for the hold ARGV[1] ("<token>:<weight>")
-- with a lease of ARGV[4] ms, when the permits held now plus that weight fit
-- within the caller's own limit ARGV[3].
-- KEYS[1]: the holder key. Absent: nobody holds (members left in KEYS[2]
-- are of ended leases). "<token>:<weight>": one hold alone, its lease the
-- key's expiry, KEYS[2] empty; a free semaphore is taken by a plain
-- SET NX PX of it (engine/semaphore.c), as this script does. '+' (no
-- member is: tokens are hex): the holds are in KEYS[2], and the key
-- outlives every lease there, so that a plain SET NX fails while any hold
-- lives; KEYS[2] expires with it.
-- KEYS[2]: the holds beside others, a sorted set of "<token>:<weight>"
-- scored by the end of each one's lease (server clock, ms): each member is
-- one permit. A hold alone in KEYS[1] goes there, with its lease, when a
-- second one comes; a member never goes back to KEYS[1]. KEYS[3]: the
-- permits the weighted holds of KEYS[2] take beyond their first, the sum of
-- weight - 1 (absent when there is none), so that the permits held are
-- ZCARD of KEYS[2] plus KEYS[3], and a hold of weight 1 never touches
-- KEYS[3] (its release is a plain ZREM, see engine/semaphore.c). KEYS[3]
-- lasts as long as the weighted leases at least, never longer than KEYS[2].
-- KEYS[4]: the waiters marker; a caller that will wait ARGV[5] ms (> 0)
-- keeps it alive that long, so that a release knows to push wake-ups.
-- KEYS[5]: the wake-up list the waiters block on (BLPOP); kept no longer
-- than the marker. ARGV[6]: '1' when this attempt comes right behind the
-- caller's BLPOP on KEYS[5] (it may have taken a wake-up).
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
-- Returns OK (the status, as SET's) when granted alone in KEYS[1] (the
-- semaphore was found free: the caller's next attempt may be a plain
-- SET NX); otherwise the permits free after a grant (>= 0), or, when not
-- granted, -1 less the ms until the earliest lease ends (0 when none is
-- known): that integer alone when the caller will not wait (ARGV[5] = 0),
-- else in an array {that, the ms the marker lives from now} (its PTTL once
-- set or extended; its expiry only ever moves later, so that the caller
-- knows every release until then pushes wake-ups: engine/semaphore.c).
-- Commands: on a free semaphore 2 (SET NX, DEL of leftovers in KEYS[2] and
-- KEYS[3]); behind a BLPOP, PTTL of the marker when permits are left (and
-- LLEN, RPUSH, PEXPIRE to pass a wake-up on). The renewal of the caller's
-- hold alone 4 (SET NX, TIME, GET, PEXPIRE). Beside one hold alone: it goes
-- into KEYS[2] first, 4 more (PTTL, ZADD, SET of KEYS[1], PEXPIRE of
-- KEYS[2]) and SET of KEYS[3] when weighted. A grant beside live holds
-- 8 (SET NX, TIME, GET, ZRANGE, ZCARD, GET, ZADD, PTTL of KEYS[1]),
-- with PEXPIRE of both when the new lease outlives them, plus SET of
-- KEYS[3] when weighted. A renewal of the caller's hold in KEYS[2] as a
-- grant, with PTTL and PEXPIRE of KEYS[3] when weighted. A refusal runs 7
-- (SET NX, TIME, GET, ZRANGE, ZCARD, GET, ZSCORE), a waiting caller's 8 to
-- 11 (the marker's PTTL, and SET, EXISTS, PEXPIRE to make it last longer).
-- A purge, when the earliest lease has ended, adds ZRANGEBYSCORE,
-- ZREMRANGEBYSCORE, ZCARD and DEL of KEYS[3] when no hold is left, or GET,
-- DECRBY or DEL when expired weighted holds are purged, with a second
-- ZRANGE; when no live hold is left, the caller takes KEYS[1] alone (SET,
-- DEL). Nothing is done per permit: the limit and the weights are numbers
-- added and compared.
-- Complexity: O(log N + M), N the holds, M the expired holds purged (their
-- members are read once, then removed by one ZREMRANGEBYSCORE or DEL).
local weight, limit, ttl = tonumber(ARGV[2]), tonumber(ARGV[3]), tonumber(ARGV[4])

local function pass_on(left)
    if ARGV[6] == '1' and left > 0 and redis.call('pttl', KEYS[4]) > 0 and redis.call('llen', KEYS[5]) == 0 then
        redis.call('rpush', KEYS[5], '1')
        redis.call('pexpire', KEYS[5], redis.call('pttl', KEYS[4]))
    end
end
local function alone()
    -- Whatever KEYS[2] and KEYS[3] hold is of ended leases.
    redis.call('del', KEYS[2], KEYS[3])
    pass_on(limit - weight)
    return redis.status_reply('OK')
end

-- (The binding keeps weight <= limit: any hold fits a free semaphore.)
if redis.call('set', KEYS[1], ARGV[1], 'NX', 'PX', ttl) then
    return alone()
end
local t = redis.call('time')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local solo = redis.call('get', KEYS[1])
if solo == ARGV[1] then
    -- The caller's own hold, alone: renewed.
    redis.call('pexpire', KEYS[1], ttl)
    return limit > weight and limit - weight or 0
end
local first = redis.call('zrange', KEYS[2], 0, 0, 'WITHSCORES')
local held, extra = 0, 0

if first[1] and tonumber(first[2]) <= now then
    local gone = 0
    for _, m in ipairs(redis.call('zrangebyscore', KEYS[2], '-inf', now)) do
        gone = gone + tonumber(string.match(m, ':(%d+)$')) - 1
    end
    redis.call('zremrangebyscore', KEYS[2], '-inf', now)
    held = redis.call('zcard', KEYS[2])
    if held == 0 then
        redis.call('del', KEYS[3])
        first = {}
    else
        extra = tonumber(redis.call('get', KEYS[3]) or '0') - gone
        if extra <= 0 then
            if gone > 0 then
                redis.call('del', KEYS[3])
            end
            extra = 0
        elseif gone > 0 then
            redis.call('decrby', KEYS[3], gone)
        end
        first = redis.call('zrange', KEYS[2], 0, 0, 'WITHSCORES')
    end
elseif first[1] then
    held = redis.call('zcard', KEYS[2])
    extra = tonumber(redis.call('get', KEYS[3]) or '0')
end

if solo ~= '+' then
    -- Another hold alone: it goes into KEYS[2] with its lease, and KEYS[1]
    -- lasts as long as it (KEYS[2] and KEYS[3] no longer).
    local keep = redis.call('pttl', KEYS[1])
    local w = tonumber(string.match(solo, ':(%d+)$'))
    redis.call('zadd', KEYS[2], now + keep, solo)
    redis.call('set', KEYS[1], '+', 'PX', keep)
    redis.call('pexpire', KEYS[2], keep)
    if w > 1 then
        extra = extra + w - 1
        redis.call('set', KEYS[3], extra, 'PX', keep)
    end
    held = held + 1
    if not first[1] or now + keep < tonumber(first[2]) then
        first = {solo, now + keep}
    end
elseif held == 0 then
    -- No live hold left: the caller's alone.
    redis.call('set', KEYS[1], ARGV[1], 'PX', ttl)
    return alone()
end
held = held + extra

local function free()
    return limit > held and limit - held or 0
end
-- KEYS[1] and KEYS[2] to outlive a lease of ttl from now.
local function outlive()
    local keep = redis.call('pttl', KEYS[1])
    if keep < ttl then
        redis.call('pexpire', KEYS[1], ttl)
        redis.call('pexpire', KEYS[2], ttl)
        keep = ttl
    end
    return keep
end

-- (A number given to redis.call is sent as an integer up to 2^53.)
local lease = now + ttl
if held + weight <= limit then
    local added = redis.call('zadd', KEYS[2], lease, ARGV[1])
    local keep = outlive()
    if added == 0 then
        -- The holder's own hold, renewed: its permits are counted already.
        if weight > 1 and redis.call('pttl', KEYS[3]) < ttl then
            redis.call('pexpire', KEYS[3], ttl)
        end
        return free()
    end
    if weight > 1 then
        redis.call('set', KEYS[3], extra + weight - 1, 'PX', keep)
    end
    held = held + weight
    pass_on(limit - held)
    return free()
end
if redis.call('zscore', KEYS[2], ARGV[1]) then
    redis.call('zadd', KEYS[2], 'XX', lease, ARGV[1])
    outlive()
    if weight > 1 and redis.call('pttl', KEYS[3]) < ttl then
        redis.call('pexpire', KEYS[3], ttl)
    end
    return free()
end
local wait, soonest = tonumber(ARGV[5]), -1 - (first[2] and tonumber(first[2]) - now or 0)
if wait <= 0 then
    return soonest
end
local marked = redis.call('pttl', KEYS[4])
if marked < wait then
    redis.call('set', KEYS[4], '1', 'PX', wait)
    if redis.call('exists', KEYS[5]) == 1 then
        redis.call('pexpire', KEYS[5], wait)
    end
    marked = wait
end
return {soonest, marked}
