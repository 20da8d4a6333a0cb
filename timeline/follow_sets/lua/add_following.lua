-- Follow, step 2, in the follower's slot: record the followed user and announce the
-- follow - only if it is new, and neither blocks the other (a block made between the
-- two steps: step 1 checked the other slot). Their statuses are merged into home by
-- feeds' merge_home.lua, run next in the same slot.
-- KEYS[1] follower's user hash  KEYS[2] their following (following.lua)
-- KEYS[3] whom they block  KEYS[4] who blocks them
-- ARGV[1] followed uid  ARGV[2] time  ARGV[3] event channel ("": the caller publishes,
-- see socialsite.events.publishes_in_scripts)  ARGV[4] event JSON
-- ARGV[5] following buckets  ARGV[6] follows the base holds before they move to buckets
-- Returns 1 if the follow is new, 0 if it already existed, -1 if refused for a block.
-- include: lib/following_read
-- include: lib/following
if redis.call('ZSCORE', KEYS[3], ARGV[1]) or redis.call('ZSCORE', KEYS[4], ARGV[1]) then
  return -1
end
if following_add(KEYS[2], tonumber(ARGV[5]), tonumber(ARGV[6]), ARGV[1], ARGV[2]) == 0 then
  return 0
end
redis.call('HINCRBY', KEYS[1], 'following', 1)
if ARGV[3] ~= '' then
  redis.call('PUBLISH', ARGV[3], ARGV[4])
end
return 1
