-- Records a stored status for its author, in the author's slot.
-- KEYS[1] user hash  KEYS[2] profile timeline  KEYS[3] home timeline
-- ARGV[1] status id  ARGV[2] posted (the profile's score)
-- ARGV[3] the home's size (0: leave home alone; a list of ids, newest at the head:
-- feeds.home_list)
if redis.call('ZADD', KEYS[2], ARGV[2], ARGV[1]) == 1 then
  redis.call('HINCRBY', KEYS[1], 'posts', 1)
end
local home_size = tonumber(ARGV[3])
if home_size > 0 then
  redis.call('LPUSH', KEYS[3], ARGV[1])
  redis.call('LTRIM', KEYS[3], 0, home_size - 1)
end
