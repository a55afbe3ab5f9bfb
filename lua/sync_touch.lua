-- sync_replicas: the grant of owner token ARGV[1] on KEYS[1], written again
-- as it is (its expiry set again to what is left of it: PEXPIRE, which the
-- server replicates), so that the WAIT sent right behind this script on the
-- same connection counts the replicas that have the key as it is now,
-- whichever connection took the grant (a WAIT counts only the writes of its
-- own connection: on one opened after the grant's, it need not wait for the
-- grant at all). Returns 1 when the key holds the
-- token (and was written again), 0 when it does not (nothing written).
-- O(1).
if redis.call('get', KEYS[1]) ~= ARGV[1] then
    return 0
end
local ttl = redis.call('pttl', KEYS[1])
if ttl > 0 then
    redis.call('pexpire', KEYS[1], ttl)
else
    -- No expiry left to set again (never a lease of ours): the same write.
    redis.call('set', KEYS[1], ARGV[1])
end
return 1
