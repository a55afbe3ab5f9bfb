-- Give back the hold ARGV[1] ("<token>:<weight>") of a semaphore, or with
-- ARGV[2] = '1' (forceRelease, an operator's tool) every hold of it.
-- KEYS as semaphore_acquire.lua: the holds, the permits they take, the
-- waiters marker, the wake-up list. While waiters are marked, as many
-- wake-ups as permits came free are pushed (at most 16 pending: a woken
-- waiter that gets in passes one on while permits are left, see
-- semaphore_acquire.lua), lasting as long as the marker.
-- Returns 1 when the hold was there with its lease running (forced: when
-- there was any hold), 0 otherwise. A hold whose lease ended is removed
-- (and its permits with it) but counts as not there.
-- Commands: the last hold's release runs 5 (ZSCORE, ZCARD, DEL of both keys,
-- TIME, PTTL of the marker), one beside other holds 6 (ZREM and DECRBY
-- instead of DEL); while waiters are marked, one LLEN, one RPUSH of all the
-- wake-ups and one PEXPIRE more. A hold whose lease had ended: no PTTL and
-- no wake-up. An unknown hold: 1.
-- Complexity: O(log N), N the holds (forced: O(N) for the DEL of N holds).
local freed, live = 0, 0

if ARGV[2] == '1' then
    live = redis.call('exists', KEYS[1])
    redis.call('del', KEYS[1], KEYS[2])
    freed = 16
else
    local score = redis.call('zscore', KEYS[1], ARGV[1])
    if not score then
        return 0
    end
    freed = tonumber(string.match(ARGV[1], ':(%d+)$'))
    if redis.call('zcard', KEYS[1]) == 1 then
        redis.call('del', KEYS[1], KEYS[2])
    else
        redis.call('zrem', KEYS[1], ARGV[1])
        if redis.call('decrby', KEYS[2], freed) <= 0 then
            redis.call('del', KEYS[1], KEYS[2])
        end
    end
    local t = redis.call('time')
    if tonumber(score) > tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000) then
        live = 1
    end
end
if live == 0 then
    return 0
end
local marked = redis.call('pttl', KEYS[3])
if marked > 0 then
    local pending = redis.call('llen', KEYS[4])
    local wakes = {}
    for i = pending + 1, math.min(pending + freed, 16) do
        wakes[#wakes + 1] = '1'
    end
    if #wakes > 0 then
        redis.call('rpush', KEYS[4], unpack(wakes))
    end
    redis.call('pexpire', KEYS[4], marked)
end
return 1
