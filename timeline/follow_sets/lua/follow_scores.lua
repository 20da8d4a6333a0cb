-- Whether a user follows each of some others (following_read.lua), in their slot.
-- KEYS[1] their following (the base)  ARGV[1] buckets  ARGV[2..] followee uids
-- Returns a follow time or nothing for each, in order.
-- include: lib/following_read
local base, n = KEYS[1], tonumber(ARGV[1])
local uids = {unpack(ARGV, 2)}
local scores = redis.call('ZMSCORE', base, unpack(uids))
for i, uid in ipairs(uids) do
  if not scores[i] then
    scores[i] = redis.call('ZSCORE', following_bucket(base, n, uid), uid)
  end
end
return scores
