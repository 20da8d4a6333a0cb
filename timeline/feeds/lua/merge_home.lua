-- Merges statuses into a home (a list of status ids, newest at the head: feeds.home_list),
-- in its owner's slot: the home's ids and those given, once each, newest (highest) first,
-- the newest ARGV[2] kept. A group whose source is no longer followed (and isn't the
-- owner) is skipped: it may have left since its statuses were read. Nothing happens to
-- the home of a deleted user (so a late follow or refill can't recreate it). With no
-- groups, it puts the home in order (a read found it out of order).
-- KEYS[1] the owner's hash  KEYS[2] whom they follow (timeline.follow_sets.following)
-- KEYS[3] their home
-- ARGV[1] the owner's uid  ARGV[2] the home's size  ARGV[3] ids a command at most
-- ARGV[4] following buckets  ARGV[5..] groups of: source uid, n, then n status ids
-- Returns how many ids were new to the home.
-- include: ../../follow_sets/lua/lib/following_read
if redis.call('EXISTS', KEYS[1]) == 0 then
  return 0
end
local size, per = tonumber(ARGV[2]), tonumber(ARGV[3])
-- Ids as numbers: exact, and written back as integers, below 10^14 (Lua's %.14g).
local seen, ids, ordered = {}, {}, true
local function take(id)
  local n = tonumber(id)
  if seen[n] then
    return false
  end
  seen[n] = true
  ids[#ids + 1] = n
  return true
end
for _, id in ipairs(redis.call('LRANGE', KEYS[3], 0, -1)) do
  local last = ids[#ids]
  if not take(id) or (last and last < ids[#ids]) then
    ordered = false
  end
end
local added, i, buckets = 0, 5, tonumber(ARGV[4])
while i <= #ARGV do
  local source, n = ARGV[i], tonumber(ARGV[i + 1])
  if source == ARGV[1] or following_score(KEYS[2], buckets, source) then
    for j = i + 2, i + 1 + n do
      if take(ARGV[j]) then
        added = added + 1
      end
    end
  end
  i = i + 2 + n
end
if added == 0 and ordered and #ids <= size then
  return 0
end
table.sort(ids, function(a, b) return a > b end)
redis.call('DEL', KEYS[3])
local last = math.min(#ids, size)
for j = 1, last, per do
  redis.call('RPUSH', KEYS[3], unpack(ids, j, math.min(j + per - 1, last)))
end
return added
