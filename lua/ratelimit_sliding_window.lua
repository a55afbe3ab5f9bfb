-- RateLimiter, policy sliding_window (exact): KEYS[1] is a sorted set with
-- one member per consume() that took permits, scored by the server time
-- (microseconds) it took them at. A member is 'c<before>:<permits>': the
-- permits it took, and the running total of the permits taken before it
-- (modulo 2^48, far above any window's worth), so that the permits of any
-- run of members are a difference of two running totals, never a sum.
-- Permits are taken only while the window (now - window, now] holds at most
-- limit of them with the new ones, and always at a time later than every
-- earlier permit, so that no window of that length ever holds more than
-- limit.
-- ARGV[1] = limit, ARGV[2] = window in ms, ARGV[3] = permits to take.
-- Returns {taken (1/0), permits left now, ms until the permits asked for
-- are due (0 when taken)}.
-- Cost, whatever the permits asked for: O(log n) for n members (consume()
-- calls within the last window, at most limit), plus at most DROP_MAX
-- members of past windows removed, plus, when refused, a binary search of
-- O(log n) steps of O(log n) each. Every number stays below 2^53, where Lua's
-- doubles are exact.
if redis.replicate_commands then
    redis.replicate_commands()
end
local TOTAL_MOD = 281474976710656 -- 2^48
local DROP_MAX = 128
local key = KEYS[1]
local limit, window, permits = tonumber(ARGV[1]), tonumber(ARGV[2]) * 1000, tonumber(ARGV[3])
local t = redis.call('time')
local now = tonumber(t[1]) * 1000000 + tonumber(t[2])
local edge = string.format('%.17g', now - window)

-- The running total before a member, and its permits (nil for a member
-- written before members carried them: one permit each).
local function member(m)
    local before, n = string.match(m, '^c(%d+):(%d+)$')
    return tonumber(before), tonumber(n)
end

local last = redis.call('zrange', key, -1, -1, 'WITHSCORES')
if last[1] and not member(last[1]) then
    -- One member per permit, as written before: their count in the window
    -- becomes one member, at the time of the latest (it leaves the window
    -- no sooner than any of them would have).
    local n = redis.call('zcount', key, '(' .. edge, '+inf')
    local stamp = last[2]
    redis.call('unlink', key)
    last = {}
    if n > 0 then
        last = { 'c0:' .. n, stamp }
        redis.call('zadd', key, stamp, last[1])
        redis.call('pexpire', key, math.ceil((tonumber(stamp) - now + window) / 1000))
    end
end

-- Members of past windows: no longer counted (the running totals make them
-- unneeded), and dropped a bounded number at a time.
local old = redis.call('zcount', key, '-inf', edge)
if old > 0 then
    redis.call('zremrangebyrank', key, 0, math.min(old, DROP_MAX) - 1)
    old = old - math.min(old, DROP_MAX)
end
local count = redis.call('zcard', key)
local used, total = 0, 0
if count > 0 then
    local b, n = member(last[1])
    total = (b + n) % TOTAL_MOD
end
local first = nil
if count > old then
    first = member(redis.call('zrange', key, old, old)[1])
    used = (total - first) % TOTAL_MOD
end

if used + permits > limit then
    -- Due when the oldest members whose permits are in the way have left
    -- the window: the first whose running total with it reaches need.
    local need = used + permits - limit
    local lo, hi = old, count - 1
    while lo < hi do
        local mid = math.floor((lo + hi) / 2)
        local b, n = member(redis.call('zrange', key, mid, mid)[1])
        if (b + n - first) % TOTAL_MOD >= need then
            hi = mid
        else
            lo = mid + 1
        end
    end
    local at = redis.call('zrange', key, lo, lo, 'WITHSCORES')
    local due = tonumber(at[2]) + window
    return { 0, math.max(limit - used, 0), math.max(math.ceil((due - now) / 1000), 1) }
end
-- Two calls within one microsecond: the later one takes the next one.
local at = now
if last[2] and tonumber(last[2]) >= at then
    at = tonumber(last[2]) + 1
end
redis.call('zadd', key, string.format('%.17g', at), string.format('c%.0f:%.0f', total, permits))
redis.call('pexpire', key, math.ceil((at - now + window) / 1000))
return { 1, limit - used - permits, 0 }
