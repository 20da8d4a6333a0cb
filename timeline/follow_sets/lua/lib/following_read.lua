-- Whom a user follows (timeline.follow_sets.following): local functions for the scripts that
-- read follows (following.lua adds the writers', after these). A user's follows (member
-- followee uid, score follow time) are their following key alone (the base) while it
-- holds up to a split's size; the follow that passes it moves them all into `n` buckets
-- `<base>:<followee uid % n>`, and the base fills again from empty. Any follow is in the base or its followee's bucket, never
-- both, so "does X follow Y" is two ZSCOREs with no state to read first. Every key is in
-- the base's slot.
local function following_bucket(base, n, uid)
  return base .. ':' .. (tonumber(uid) % n)
end

-- The follow time of `uid`, or false.
local function following_score(base, n, uid)
  return redis.call('ZSCORE', base, uid) or redis.call('ZSCORE', following_bucket(base, n, uid), uid)
end

-- The keys that hold follows: the base, and the buckets if any exists.
local function following_keys(base, n)
  local all = {base}
  for bucket = 0, n - 1 do
    all[#all + 1] = base .. ':' .. bucket
  end
  if redis.call('EXISTS', unpack(all, 2)) == 0 then
    return {base}
  end
  return all
end
