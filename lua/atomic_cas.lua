-- Atomic::compareAndSet: write ARGV[4] to KEYS[1] only if its value is still
-- the one expected, compared byte for byte.
-- ARGV[1] = '1': ARGV[2] is the value expected; '0': the key must be absent.
-- ARGV[3] = '1': write ARGV[4]; '0': delete the key.
-- ARGV[5] = ttl in ms, or '' to keep the key's expiry as it is.
-- Returns 1 when written (or deleted), 0 when the value was not the one
-- expected (nothing changed). A key of another type is an error reply.
local current = redis.call('get', KEYS[1])
if ARGV[1] == '1' then
    if current ~= ARGV[2] then
        return 0
    end
elseif current then
    return 0
end
if ARGV[3] == '0' then
    redis.call('del', KEYS[1])
elseif ARGV[5] ~= '' then
    redis.call('set', KEYS[1], ARGV[4], 'PX', ARGV[5])
else
    redis.call('set', KEYS[1], ARGV[4], 'KEEPTTL')
end
return 1
