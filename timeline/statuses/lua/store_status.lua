-- Records a stored status for its author, in the author's slot.
-- KEYS[1] user hash  KEYS[2] profile timeline  KEYS[3] home timeline
-- ARGV[1] status id  ARGV[2] posted (the profile's score)
-- ARGV[3] the home's score (timeline.scores.HOME; '': leave home alone)
-- ARGV[4], ARGV[5] the ranks to remove to keep the home's newest (timeline.scores)
if redis.call('ZADD', KEYS[2], ARGV[2], ARGV[1]) == 1 then
  redis.call('HINCRBY', KEYS[1], 'posts', 1)
end
if ARGV[3] ~= '' then
  redis.call('ZADD', KEYS[3], ARGV[3], ARGV[1])
  redis.call('ZREMRANGEBYRANK', KEYS[3], ARGV[4], ARGV[5])
end
