-- sync_replicas: the grant of owner token ARGV[1] on KEYS[1], written again
-- as it is (its expiry set again to what is left of it: PEXPIRE, which the
-- server replicates), so that the WAIT sent right behind this script on the
-- same connection counts the replicas that have the key as it is now,
-- whichever connection took the grant (a WAIT counts only the writes of its
-- own connection: on one opened after the grant's, it need not wait for the
-- grant at all). A share of ARGV[1] counts as its grant: KEYS[1] holds '*'
-- and the token (the one reader), or '*' with the token among the readers in
-- KEYS[2] (either maybe followed by a waiting writer's '@' mark); the
-- readers' set, written before, reaches a replica before this write does.
-- Returns 1 when the key holds the token or the share (and was written
-- again), 0 when it does not (nothing written).
-- O(1); O(log N) for a share among N readers.
local v = redis.call('get', KEYS[1])
if v ~= ARGV[1] then
    local base = v and string.match(v, '^%*[^@]*')
    if not base or (base ~= '*' .. ARGV[1] and
        (base ~= '*' or not redis.call('zscore', KEYS[2], ARGV[1]))) then
        return 0
    end
end
local ttl = redis.call('pttl', KEYS[1])
if ttl > 0 then
    redis.call('pexpire', KEYS[1], ttl)
else
    -- No expiry left to set again (never a lease of ours): the same write.
    redis.call('set', KEYS[1], v)
end
return 1
