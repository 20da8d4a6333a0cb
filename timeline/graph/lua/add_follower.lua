-- Follow, step 1, in the followed user's slot: record the follower.
-- KEYS[1] followed user's hash  KEYS[2] their followers  KEYS[3] their profile timeline
-- ARGV[1] follower uid  ARGV[2] time  ARGV[3] newest profile entries to return
-- Returns {their login, their newest profile entries as a flat {id, score, ...} list},
-- or {} (and changes nothing) if the followed user doesn't exist.
if redis.call('EXISTS', KEYS[1]) == 0 then
  return {}
end
if redis.call('ZADD', KEYS[2], 'NX', ARGV[2], ARGV[1]) == 1 then
  redis.call('HINCRBY', KEYS[1], 'followers', 1)
end
local entries = redis.call('ZREVRANGE', KEYS[3], 0, tonumber(ARGV[3]) - 1, 'WITHSCORES')
return {redis.call('HGET', KEYS[1], 'login'), entries}
