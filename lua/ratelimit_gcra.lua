-- RateLimiter, policy gcra (generic cell rate algorithm): KEYS[1] holds the
-- theoretical arrival time (TAT, server microseconds) of the next permit.
-- ARGV[1] = limit, ARGV[2] = window in ms, ARGV[3] = permits to take.
-- A permit is emitted every window/limit; up to limit may be taken at once.
-- Decided on the server's clock (TIME). Returns {taken (1/0), permits left
-- now, ms until the permits asked for are due (0 when taken)}.
-- Exact over the whole accepted range (limit and window up to 2^31 - 1, so
-- an emission interval from 2^-31 us to 2^41 us): times are whole
-- microseconds plus a fraction in units of 1/limit us, and every product is
-- taken in steps that stay below 2^53, where Lua's doubles are exact. The
-- TAT is stored as '<us>.<fraction in 10 decimals>', a number to any reader,
-- from which the fraction's units come back exactly (limit < 2^31 < 10^10).
-- Cost: O(1).
if redis.replicate_commands then
    redis.replicate_commands()
end
local limit, window, permits = tonumber(ARGV[1]), tonumber(ARGV[2]) * 1000, tonumber(ARGV[3])
local t = redis.call('time')
local now = tonumber(t[1]) * 1000000 + tonumber(t[2])

-- q, r with x = q * m + r, 0 <= r < m, for x < 2^52 (the division of
-- doubles may be one off; the remainder is exact and puts it right).
local function divmod(x, m)
    local q = math.floor(x / m)
    local r = x - q * m
    if r < 0 then
        q, r = q - 1, r + m
    elseif r >= m then
        q, r = q + 1, r - m
    end
    return q, r
end

-- q, r with a * b = q * m + r, 0 <= r < m, exactly, for a and m below 2^41
-- and b below 2^40: at once when the product is below 2^52, otherwise
-- with b taken in four digits of 10 bits, so that no step passes 2^52.
local function muldiv(a, b, m)
    if a * b < 4503599627370496 then
        return divmod(a * b, m)
    end
    local q, r = 0, 0
    for shift = 30, 0, -10 do
        local qd, rd = divmod(r * 1024 + a * (math.floor(b / 2 ^ shift) % 1024), m)
        q, r = q * 1024 + qd, rd
    end
    return q, r
end

-- The ms that cover us + frac / limit microseconds (us >= 0).
local function ceil_ms(us, frac)
    local ms = math.floor(us / 1000)
    if us > ms * 1000 or frac > 0 then
        ms = ms + 1
    end
    return ms
end

-- Permits that fit in what is left of the window ahead of a TAT d + f /
-- limit microseconds from now: floor((window - d - f / limit) / interval).
local function left(d, f)
    if d > window or (d == window and f > 0) then
        return 0
    end
    local xd, xf = window - d, 0
    if f > 0 then
        xd, xf = xd - 1, limit - f
    end
    local q, r = muldiv(xd, limit, window)
    return q + divmod(r + xf, window)
end

-- The stored TAT: whole microseconds and the fraction's units.
local tat, frac = 0, 0
local stored = redis.call('get', KEYS[1])
if stored then
    local us, decimals = string.match(stored, '^(%d+)%.?(%d*)$')
    if us then
        tat = tonumber(us)
        if decimals ~= '' then
            frac = math.floor(tonumber('0.' .. decimals) * limit + 0.5)
            if frac >= limit then
                tat, frac = tat + 1, frac - limit
            end
        end
    end
end
if tat < now then
    tat, frac = now, 0
end
-- The TAT after the permits asked for, ahead of now: permits * interval is
-- permits * window / limit.
local d, f = tat - now, frac
local q, r = muldiv(window, permits, limit)
local nd, nf = d + q, f + r
if nf >= limit then
    nd, nf = nd + 1, nf - limit
end
if nd > window or (nd == window and nf > 0) then
    return { 0, left(d, f), math.max(ceil_ms(nd - window, nf), 1) }
end
local decimals = muldiv(nf, 10000000000, limit)
redis.call('set', KEYS[1], string.format('%.0f.%010.0f', now + nd, decimals), 'PX', ceil_ms(nd, nf))
return { 1, left(nd, nf), 0 }
