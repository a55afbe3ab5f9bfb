-- Quorum locks with fencing: raise this server's fence counter KEYS[1] to
-- at least ARGV[1], the number just handed out, so that any later majority
-- (which shares a server with the one that granted it) numbers its grant
-- higher. Returns 1.
if tonumber(redis.call('get', KEYS[1]) or '0') < tonumber(ARGV[1]) then
    redis.call('set', KEYS[1], ARGV[1])
end
return 1
