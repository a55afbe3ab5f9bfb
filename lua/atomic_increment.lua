-- Atomic::increment: add ARGV[1] to the integer in KEYS[1] (absent: 0),
-- unless the result would fall below ARGV[2] or rise above ARGV[3] ('': no
-- such bound). The sum is INCRBY's (exact 64-bit arithmetic, an error reply
-- for a value that is not an integer, or for a sum that overflows on a side
-- with no bound); the bounds are compared on the decimal texts, exactly. When a bound would be crossed
-- the old value is put back (or the key deleted when there was none),
-- expiry included: nothing changed.
-- ARGV[4] = ttl in ms to set after a change, or '' to keep the key's expiry.
-- Returns {1, new value} or {0, current value or false}.
local function compare(a, b)
    local na, nb = a:sub(1, 1) == '-', b:sub(1, 1) == '-'
    if na ~= nb then
        return na and -1 or 1
    end
    local r = 0
    if #a ~= #b then
        r = #a < #b and -1 or 1
    elseif a ~= b then
        r = a < b and -1 or 1
    end
    return na and -r or r
end
local old = redis.call('get', KEYS[1])
local sum = redis.pcall('incrby', KEYS[1], ARGV[1])
if type(sum) == 'table' and sum.err then
    -- Past the 64-bit range: beyond the bound on that side, if there is one.
    local down = ARGV[1]:sub(1, 1) == '-'
    if string.find(sum.err, 'overflow', 1, true) and ARGV[down and 2 or 3] ~= '' then
        return { 0, old }
    end
    return sum
end
local new = redis.call('get', KEYS[1])
if (ARGV[2] ~= '' and compare(new, ARGV[2]) < 0) or (ARGV[3] ~= '' and compare(new, ARGV[3]) > 0) then
    if old then
        redis.call('set', KEYS[1], old, 'KEEPTTL')
    else
        redis.call('del', KEYS[1])
    end
    return { 0, old }
end
if ARGV[4] ~= '' then
    redis.call('pexpire', KEYS[1], ARGV[4])
end
return { 1, new }
