-- Unfollow, step 2, in the follower's slot: forget the followed user, take their
-- statuses out of home, and announce the unfollow - all only if it was followed.
-- KEYS[1] follower's user hash  KEYS[2] their following  KEYS[3] their home timeline
-- ARGV[1] followed uid  ARGV[2] event channel ("": the caller publishes, see
-- socialsite.events.publishes_in_scripts)  ARGV[3] event JSON  ARGV[4..] ids to remove
-- Returns 1 if the follow existed, 0 if not.
if redis.call('ZREM', KEYS[2], ARGV[1]) == 0 then
  return 0
end
redis.call('HINCRBY', KEYS[1], 'following', -1)
for i = 4, #ARGV, 1000 do
  redis.call('ZREM', KEYS[3], unpack(ARGV, i, math.min(i + 999, #ARGV)))
end
if ARGV[2] ~= '' then
  redis.call('PUBLISH', ARGV[2], ARGV[3])
end
return 1
