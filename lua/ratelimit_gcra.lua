-- RateLimiter, policy gcra (generic cell rate algorithm): KEYS[1] holds the
-- theoretical arrival time (TAT, server microseconds) of the next permit.
-- ARGV[1] = limit, ARGV[2] = window in ms, ARGV[3] = permits to take.
-- A permit is emitted every window/limit; up to limit may be taken at once.
-- Decided on the server's clock (TIME). Returns {taken (1/0), permits left
-- now, ms until the permits asked for are due (0 when taken)}.
if redis.replicate_commands then
    redis.replicate_commands()
end
local limit, window, permits = tonumber(ARGV[1]), tonumber(ARGV[2]) * 1000, tonumber(ARGV[3])
local t = redis.call('time')
local now = tonumber(t[1]) * 1000000 + tonumber(t[2])
local interval = window / limit
local tat = tonumber(redis.call('get', KEYS[1]) or '0') or 0
if tat < now then
    tat = now
end
local new_tat = tat + permits * interval
local due = new_tat - window
if due > now then
    local left = math.floor((window - (tat - now)) / interval)
    return { 0, math.max(left, 0), math.ceil((due - now) / 1000) }
end
redis.call('set', KEYS[1], string.format('%.17g', new_tat), 'PX', math.ceil((new_tat - now) / 1000))
return { 1, math.floor((window - (new_tat - now)) / interval), 0 }
