-- What a live home stream needs to know of its owner's home, read at once, in the
-- owner's slot: whom they follow, the home's newest entries, and which of those are
-- the reposts the home last took in for their originals (the repost rule's "shown").
-- KEYS[1] their following (timeline.follow_sets.following)  KEYS[2] their home timeline (a
-- list of ids, newest at the head: timeline.feeds.home_list)  KEYS[3] the reposts shown
-- in it (original id -> repost id)  ARGV[1] how many of the newest entries to read
-- ARGV[2] following buckets
-- Returns {followed uids}, {ids, as home holds them}, {original id, repost id, ...}.
-- include: ../../timeline/follow_sets/lua/lib/following_read
local following = {}
for _, key in ipairs(following_keys(KEYS[1], tonumber(ARGV[2]))) do
  for _, uid in ipairs(redis.call('ZRANGE', key, 0, -1)) do
    following[#following + 1] = uid
  end
end
local newest = redis.call('LRANGE', KEYS[2], 0, tonumber(ARGV[1]) - 1)
local shown = {}
if #newest > 0 then
  local entries, low, high = {}, math.huge, -math.huge
  for _, entry in ipairs(newest) do
    local id = tonumber(entry)
    entries[id] = true
    low, high = math.min(low, id), math.max(high, id)
  end
  -- Scored by repost id: only the range of the ids read can hold theirs.
  local found = redis.call('ZRANGE', KEYS[3], low, high, 'BYSCORE', 'WITHSCORES')
  for i = 1, #found, 2 do
    if entries[tonumber(found[i + 1])] then
      shown[#shown + 1] = found[i]
      shown[#shown + 1] = found[i + 1]
    end
  end
end
return {following, newest, shown}
