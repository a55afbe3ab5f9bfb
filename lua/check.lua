-- isAcquired: whether KEYS[1] still holds the owner token ARGV[1], and for
-- how long. Returns the key's pttl in ms when it does (-1: no expiry), -2
-- when the key is absent or held by another token.
if redis.call('get', KEYS[1]) == ARGV[1] then
    return redis.call('pttl', KEYS[1])
end
return -2
