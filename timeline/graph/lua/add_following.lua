-- Follow, step 2, in the follower's slot: record the followed user, copy their
-- statuses into home, and announce the follow - all only if it is new, and neither
-- blocks the other (a block made between the two steps: step 1 checked the other slot).
-- KEYS[1] follower's user hash  KEYS[2] their following  KEYS[3] their home timeline
-- KEYS[4] whom they block  KEYS[5] who blocks them
-- ARGV[1] followed uid  ARGV[2] time  ARGV[3], ARGV[4] the ranks to remove to keep
-- home's newest (timeline.scores)  ARGV[5] event channel ("": the caller publishes,
-- see socialsite.events.publishes_in_scripts)
-- ARGV[6] event JSON  ARGV[7..] profile entries to copy as home score, id pairs
-- Returns 1 if the follow is new, 0 if it already existed, -1 if refused for a block.
if redis.call('ZSCORE', KEYS[4], ARGV[1]) or redis.call('ZSCORE', KEYS[5], ARGV[1]) then
  return -1
end
if redis.call('ZADD', KEYS[2], 'NX', ARGV[2], ARGV[1]) == 0 then
  return 0
end
redis.call('HINCRBY', KEYS[1], 'following', 1)
-- Chunks keep each ZADD's arguments well under Lua's stack limit.
for i = 7, #ARGV, 1000 do
  redis.call('ZADD', KEYS[3], unpack(ARGV, i, math.min(i + 999, #ARGV)))
end
redis.call('ZREMRANGEBYRANK', KEYS[3], ARGV[3], ARGV[4])
if ARGV[5] ~= '' then
  redis.call('PUBLISH', ARGV[5], ARGV[6])
end
return 1
