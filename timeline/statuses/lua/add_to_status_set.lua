-- Adds a member to one of a status's reply, repost or like sets and counts it in
-- the status hash, from ZADD's own result, so the count always equals the set.
-- KEYS[1] status hash  KEYS[2] the set
-- ARGV[1] count field  ARGV[2] score  ARGV[3] member
-- ARGV[4] the channel a change is published on (statuses.cache)
-- Returns the new count; 0 if the status doesn't exist; -1 if the member was
-- already there (both change nothing).
if redis.call('EXISTS', KEYS[1]) == 0 then
  return 0
end
if redis.call('ZADD', KEYS[2], 'NX', ARGV[2], ARGV[3]) == 0 then
  return -1
end
local count = redis.call('HINCRBY', KEYS[1], ARGV[1], 1)
redis.call('PUBLISH', ARGV[4], KEYS[1])
return count
