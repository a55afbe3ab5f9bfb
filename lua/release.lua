-- Compare-and-delete: remove KEYS[1] only while it still holds the owner
-- token ARGV[1]. Returns 1 when the key was deleted, 0 when it was absent or
-- held by another token (which is left untouched).
if redis.call('get', KEYS[1]) == ARGV[1] then
    return redis.call('del', KEYS[1])
end
return 0
