-- Remove from a list, step 2, in the list's slot (step 1 took the list out of the
-- member's "listed in" set): forget the member, take their statuses out of the list
-- timeline and announce it - only if the list is ARGV[1]'s and they were a member.
-- KEYS[1] list hash  KEYS[2] members  KEYS[3] list timeline
-- ARGV[1] owner uid  ARGV[2] member uid  ARGV[3] event channel  ARGV[4] event JSON
-- ARGV[5..] the member's status ids to remove
-- Returns 1 if removed; 0 if not a member; -1 if the list is gone or someone else's.
if redis.call('HGET', KEYS[1], 'owner') ~= ARGV[1] then
  return -1
end
if redis.call('ZREM', KEYS[2], ARGV[2]) == 0 then
  return 0
end
redis.call('HINCRBY', KEYS[1], 'members', -1)
for i = 5, #ARGV, 1000 do
  redis.call('ZREM', KEYS[3], unpack(ARGV, i, math.min(i + 999, #ARGV)))
end
redis.call('PUBLISH', ARGV[3], ARGV[4])
return 1
