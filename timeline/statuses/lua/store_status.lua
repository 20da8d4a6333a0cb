-- Records a stored status for its author, in the author's slot.
-- KEYS[1] user hash  KEYS[2] profile timeline  KEYS[3] home timeline  KEYS[4] followers
-- ARGV[1] status id  ARGV[2] posted  ARGV[3] home size (0: leave home alone)
-- ARGV[4] followers to return for the first fan-out pass (0: none)
-- Returns the first followers as a flat {uid, score, ...} list.
if redis.call('ZADD', KEYS[2], ARGV[2], ARGV[1]) == 1 then
  redis.call('HINCRBY', KEYS[1], 'posts', 1)
end
local home_size = tonumber(ARGV[3])
if home_size > 0 then
  redis.call('ZADD', KEYS[3], ARGV[2], ARGV[1])
  redis.call('ZREMRANGEBYRANK', KEYS[3], 0, -home_size - 1)
end
local batch = tonumber(ARGV[4])
if batch > 0 then
  return redis.call('ZRANGE', KEYS[4], 0, batch - 1, 'WITHSCORES')
end
return {}
