-- Unfollow, step 1, in the followed user's slot: forget the follower.
-- KEYS[1] followed user's hash  KEYS[2] their followers  KEYS[3] their profile timeline
-- ARGV[1] follower uid  ARGV[2] newest profile ids to return  ARGV[3] when they
-- followed, as their following set says ('+inf' if it doesn't: see pieces.lua)
-- Returns {their login, their newest profile ids}, or {} if the user doesn't exist.
-- include: lib/pieces
if redis.call('EXISTS', KEYS[1]) == 0 then
  return {}
end
if remove_follower(KEYS[2], ARGV[1], ARGV[3]) == 1 then
  redis.call('HINCRBY', KEYS[1], 'followers', -1)
end
return {redis.call('HGET', KEYS[1], 'login'), redis.call('ZREVRANGE', KEYS[3], 0, tonumber(ARGV[2]) - 1)}
