-- Adds a member to a sorted set that holds at most a given number of members: a
-- user's pins or followed tags, in the user's slot.
-- KEYS[1] the sorted set
-- ARGV[1] member  ARGV[2] score  ARGV[3] most members
-- Returns 1 if added; -1 if it was there already; 0 if the set is full (both change
-- nothing).
if redis.call('ZSCORE', KEYS[1], ARGV[1]) then
  return -1
end
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[3]) then
  return 0
end
redis.call('ZADD', KEYS[1], ARGV[2], ARGV[1])
return 1
