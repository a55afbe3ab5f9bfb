-- Give back the hold ARGV[1] ("<token>:<weight>") of a semaphore, or with
-- ARGV[2] = '1' (forceRelease, an operator's tool) every hold of it.
-- KEYS as semaphore_acquire.lua: the holds, the permits weighted holds take
-- beyond their first, the waiters marker, the wake-up list. While waiters
-- are marked, as many wake-ups as permits came free are pushed (at most 16
-- pending: a woken waiter that gets in passes one on while permits are
-- left, see semaphore_acquire.lua), lasting as long as the marker.
-- The release of a hold of weight 1 whose lease surely runs (the holder's
-- local validity) is a plain ZREM and PTTL of the marker instead, with the
-- wake-up in a second write (engine/semaphore.c); this script is for the
-- other holds, and for a hold whose lease may have ended, which it tells
-- from a live one by the server's clock.
-- Returns 1 when the hold was there with its lease running (forced: when
-- there was any hold), 0 otherwise. A hold whose lease ended is removed
-- (and its permits with it) but counts as not there.
-- Commands: a hold of weight 1 runs 4 (ZSCORE, ZREM, TIME, PTTL of the
-- marker), a weighted one 5 (DECRBY of KEYS[2]) or 6 (DEL of KEYS[2] when
-- it was the last weighted hold); while waiters are marked, one LLEN, one
-- RPUSH of all the wake-ups and one PEXPIRE more. A hold whose lease had
-- ended: no PTTL and no wake-up. An unknown hold: 1. Forced: EXISTS, DEL of
-- both keys, and the marker's PTTL and the wake-ups.
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
    -- The last member's ZREM deletes the sorted set.
    redis.call('zrem', KEYS[1], ARGV[1])
    if freed > 1 and redis.call('decrby', KEYS[2], freed - 1) <= 0 then
        redis.call('del', KEYS[2])
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
