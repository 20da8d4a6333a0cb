-- Checks a hash's counters against the sizes of the sets they count, in the hash's
-- slot (a user's, a status's, a list's), and with ARGV[1] = '1' sets them to those
-- sizes, so a follow, like or post racing with the repair can't leave them wrong.
-- KEYS[1] the hash  KEYS[2..] the counted sets, in the order of the fields
-- ARGV[1] '1' to fix, '' to report  ARGV[2] the field that counts a following set
-- ('' if none)  ARGV[3] its buckets  ARGV[4..] the counter fields (absent counts as 0)
-- Returns {field, counter, set size, ...} for each wrong counter; {} if the hash is
-- gone (and nothing changes). A set kept in pieces (followers: timeline.follow_sets.followers)
-- or buckets (following: timeline.follow_sets.following) counts them all.
-- include: ../../follow_sets/lua/lib/pieces
-- include: ../../follow_sets/lua/lib/following_read
if redis.call('EXISTS', KEYS[1]) == 0 then
  return {}
end
local wrong = {}
for i = 4, #ARGV do
  local set = KEYS[i - 2]
  local counter = tonumber(redis.call('HGET', KEYS[1], ARGV[i]) or '0')
  local size = 0
  if ARGV[i] == ARGV[2] then
    for _, key in ipairs(following_keys(set, tonumber(ARGV[3]))) do
      size = size + redis.call('ZCARD', key)
    end
  else
    size = redis.call('ZCARD', set)
    for _, start in ipairs(redis.call('ZRANGE', piece_index(set), 0, -1)) do
      size = size + redis.call('ZCARD', piece_key(set, start))
    end
  end
  if counter ~= size then
    table.insert(wrong, ARGV[i])
    table.insert(wrong, tostring(counter))
    table.insert(wrong, size)
    if ARGV[1] == '1' then
      redis.call('HSET', KEYS[1], ARGV[i], size)
    end
  end
end
return wrong
