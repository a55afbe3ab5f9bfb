-- Give back the hold ARGV[1] ("<token>:<weight>") of a semaphore, or with
-- ARGV[2] = '1' (forceRelease, an operator's tool) every hold of it.
-- KEYS as semaphore_acquire.lua: the holder key, the holds, the permits
-- weighted holds take beyond their first, the waiters marker, the wake-up
-- list. A hold alone in the holder key is deleted with it (its lease is
-- the key's expiry: there, it runs); one there no longer went into the
-- holds meanwhile (or ended). While waiters are marked, as many wake-ups as
-- permits came free are pushed (at most 16 pending: a woken waiter that
-- gets in passes one on while permits are left, see semaphore_acquire.lua),
-- lasting as long as the marker.
-- The release of a hold of weight 1 granted into the holds whose lease
-- surely runs (the holder's local validity) is a plain ZREM and PTTL of the
-- marker instead, with the wake-up in a second write (engine/semaphore.c);
-- this script is for the other holds, and for a hold whose lease may have
-- ended, which it tells from a live one by the server's clock.
-- Returns 1 when the hold was there with its lease running (forced: when
-- there was any live hold), 0 otherwise. A hold whose lease ended is
-- removed (and its permits with it) but counts as not there.
-- Commands: a hold alone runs 3 (GET, DEL, PTTL of the marker), as the
-- lock's release. A hold in the holds, of weight 1, runs 5 (GET, ZSCORE,
-- ZREM, TIME, PTTL of the marker), a weighted one 6 (DECRBY of KEYS[3]) or
-- 7 (DEL of KEYS[3] when it was the last weighted hold); the last live one
-- EXISTS and DEL of the holder key more. While waiters are marked, one
-- LLEN, one RPUSH of all the wake-ups and one PEXPIRE more. A hold whose
-- lease had ended: no PTTL and no wake-up. An unknown hold: 2. Forced: GET,
-- (TIME and ZCOUNT when the holds are in KEYS[2]), DEL of the three keys,
-- and the marker's PTTL and the wake-ups.
-- Complexity: O(log N), N the holds (forced: O(N) for the DEL of N holds).
local freed, live = 0, 0
local solo = redis.call('get', KEYS[1])

local function now()
    local t = redis.call('time')
    return tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
end

if ARGV[2] == '1' then
    if solo == '+' then
        live = redis.call('zcount', KEYS[2], '(' .. now(), '+inf') > 0 and 1 or 0
    elseif solo then
        live = 1
    end
    redis.call('del', KEYS[1], KEYS[2], KEYS[3])
    freed = 16
elseif solo == ARGV[1] then
    redis.call('del', KEYS[1])
    freed = tonumber(string.match(ARGV[1], ':(%d+)$'))
    live = 1
else
    local score = redis.call('zscore', KEYS[2], ARGV[1])
    if not score then
        return 0
    end
    freed = tonumber(string.match(ARGV[1], ':(%d+)$'))
    -- The last member's ZREM deletes the sorted set.
    redis.call('zrem', KEYS[2], ARGV[1])
    if freed > 1 and redis.call('decrby', KEYS[3], freed - 1) <= 0 then
        redis.call('del', KEYS[3])
    end
    if tonumber(score) > now() then
        live = 1
        if redis.call('exists', KEYS[2]) == 0 then
            -- The last hold: the semaphore is free.
            redis.call('del', KEYS[1])
        end
    end
end
if live == 0 then
    return 0
end
local marked = redis.call('pttl', KEYS[4])
if marked > 0 then
    local pending = redis.call('llen', KEYS[5])
    local wakes = {}
    for i = pending + 1, math.min(pending + freed, 16) do
        wakes[#wakes + 1] = '1'
    end
    if #wakes > 0 then
        redis.call('rpush', KEYS[5], unpack(wakes))
    end
    redis.call('pexpire', KEYS[5], marked)
end
return 1
