-- Compare-and-pexpire: reset the lease of KEYS[1] to ARGV[2] milliseconds
-- only while it still holds the owner token ARGV[1]. Returns 1 when the lease
-- was renewed, 0 when the key was absent or held by another token.
if redis.call('get', KEYS[1]) == ARGV[1] then
    return redis.call('pexpire', KEYS[1], ARGV[2])
end
return 0
