-- Unfollow, step 2, in the follower's slot: forget the followed user, take their
-- statuses out of home (a list: rewritten without them, however often each is there),
-- and announce the unfollow - all only if it was followed.
-- KEYS[1] follower's user hash  KEYS[2] their following (following.lua)
-- KEYS[3] their home timeline
-- ARGV[1] followed uid  ARGV[2] event channel ("": the caller publishes, see
-- socialsite.events.publishes_in_scripts)  ARGV[3] event JSON  ARGV[4] ids a command
-- at most  ARGV[5] following buckets  ARGV[6..] ids to remove
-- Returns 1 if the follow existed, 0 if not.
-- include: lib/following_read
-- include: lib/following
if following_remove(KEYS[2], tonumber(ARGV[5]), ARGV[1]) == 0 then
  return 0
end
redis.call('HINCRBY', KEYS[1], 'following', -1)
-- Nothing to take out (the followed user has no statuses): home isn't read.
if #ARGV >= 6 then
  local gone = {}
  for i = 6, #ARGV do
    gone[ARGV[i]] = true
  end
  local entries = redis.call('LRANGE', KEYS[3], 0, -1)
  local kept = {}
  for _, id in ipairs(entries) do
    if not gone[id] then
      kept[#kept + 1] = id
    end
  end
  if #kept < #entries then
    redis.call('DEL', KEYS[3])
    local per = tonumber(ARGV[4])
    for i = 1, #kept, per do
      redis.call('RPUSH', KEYS[3], unpack(kept, i, math.min(i + per - 1, #kept)))
    end
  end
end
if ARGV[2] ~= '' then
  redis.call('PUBLISH', ARGV[2], ARGV[3])
end
return 1
