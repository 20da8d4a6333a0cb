-- Converts a home stored as a sorted set (scored newest first: negated microseconds)
-- into a list of its ids, newest at the head (feeds.home_list), in its owner's slot;
-- a home that is a list already (or gone) is left alone.
-- KEYS[1] the home  ARGV[1] ids a command at most
-- Returns 1 if it converted the home, 0 if not.
if redis.call('TYPE', KEYS[1])['ok'] ~= 'zset' then
  return 0
end
local ids = redis.call('ZRANGE', KEYS[1], 0, -1)
redis.call('DEL', KEYS[1])
local per = tonumber(ARGV[1])
for i = 1, #ids, per do
  redis.call('RPUSH', KEYS[1], unpack(ids, i, math.min(i + per - 1, #ids)))
end
return 1
