-- Add to a list, step 2, in the list's slot (step 1 put the list in the member's
-- "listed in" set): record the member, copy their statuses into the list timeline
-- and announce it - only if the list is still ARGV[1]'s and not full.
-- KEYS[1] list hash  KEYS[2] members  KEYS[3] list timeline
-- ARGV[1] owner uid  ARGV[2] member uid  ARGV[3] time  ARGV[4] timeline size
-- ARGV[5] most members  ARGV[6] event channel  ARGV[7] event JSON
-- ARGV[8..] the member's statuses to copy as score, id pairs
-- Returns 1 if added; 0 if already a member; -1 if the list is gone or someone
-- else's; -2 if it is full.
if redis.call('HGET', KEYS[1], 'owner') ~= ARGV[1] then
  return -1
end
if redis.call('ZSCORE', KEYS[2], ARGV[2]) then
  return 0
end
if redis.call('ZCARD', KEYS[2]) >= tonumber(ARGV[5]) then
  return -2
end
-- Not a member (checked above): the ZADD adds one.
redis.call('ZADD', KEYS[2], ARGV[3], ARGV[2])
redis.call('HINCRBY', KEYS[1], 'members', 1)
-- Chunks keep each ZADD's arguments well under Lua's stack limit.
for i = 8, #ARGV, 1000 do
  redis.call('ZADD', KEYS[3], unpack(ARGV, i, math.min(i + 999, #ARGV)))
end
redis.call('ZREMRANGEBYRANK', KEYS[3], 0, -tonumber(ARGV[4]) - 1)
redis.call('PUBLISH', ARGV[6], ARGV[7])
return 1
