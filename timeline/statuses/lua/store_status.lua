-- Records a stored status for its author, in the author's slot.
-- KEYS[1] user hash  KEYS[2] profile timeline  KEYS[3] home timeline  KEYS[4] followers
-- ARGV[1] status id  ARGV[2] posted (the profile's score)
-- ARGV[3] the home's size (0: leave home alone; a list of ids, newest at the head:
-- feeds.home_list)  ARGV[4] followers in the first fan-out pass (0: none)
-- Returns where a fan-out job takes over after that pass, as fan_out_cursor.lua does:
-- {the pass's last follower's follow time, how many followers share that time up to
-- and including it}, or {} if the pass holds them all. (The pass's uids are read by a
-- plain ZRANGE queued after this: a script's reply of 1,000 members costs Redis more.)
if redis.call('ZADD', KEYS[2], ARGV[2], ARGV[1]) == 1 then
  redis.call('HINCRBY', KEYS[1], 'posts', 1)
end
local home_size = tonumber(ARGV[3])
if home_size > 0 then
  redis.call('LPUSH', KEYS[3], ARGV[1])
  redis.call('LTRIM', KEYS[3], 0, home_size - 1)
end
local batch = tonumber(ARGV[4])
if batch == 0 then
  return {}
end
local last = redis.call('ZRANGE', KEYS[4], batch - 1, batch - 1, 'WITHSCORES')
if #last == 0 or redis.call('ZCARD', KEYS[4]) == batch then
  return {}
end
return {last[2], batch - redis.call('ZCOUNT', KEYS[4], '-inf', '(' .. last[2])}
