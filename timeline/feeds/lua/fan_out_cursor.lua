-- Where the next fan-out job starts, in the author's slot: just after ARGV[1], the last
-- follower this job reached.
-- KEYS[1] the author's followers  ARGV[1] that follower's uid
-- Returns {its follow time, how many followers share that time up to and including it}
-- (the next job skips those, so followers tied at one instant are neither missed nor
-- redone), or {} if it unfollowed meanwhile.
local score = redis.call('ZSCORE', KEYS[1], ARGV[1])
if not score then
  return {}
end
local before = redis.call('ZCOUNT', KEYS[1], '-inf', '(' .. score)
return {score, redis.call('ZRANK', KEYS[1], ARGV[1]) - before + 1}
