-- A vote in a status's poll, in the status's slot: one vote a person, never changed
-- (as Mastodon), only while the poll is open.
-- KEYS[1] status hash  KEYS[2] the poll's voters (hash: uid -> choices, "0,2")
-- ARGV[1] the voter's uid  ARGV[2] their choices ("0,2": distinct option indexes,
--         checked against the poll's options by the caller)  ARGV[3] now (Unix seconds)
-- ARGV[4] the channel a change is published on (statuses.cache)
-- Returns {1, choices} when counted; {0, ''} if the status (or its poll) is gone;
-- {-1, their choices} if they voted already; {-2, ''} if the poll is closed.
local poll = redis.call('HMGET', KEYS[1], 'poll_options', 'poll_expires', 'poll_closed', 'poll_counts')
if not poll[1] then
  return {0, ''}
end
local before = redis.call('HGET', KEYS[2], ARGV[1])
if before then
  return {-1, before}
end
if poll[3] == '1' or tonumber(ARGV[3]) >= tonumber(poll[2]) then
  return {-2, ''}
end
local counts = {}
local options = #cjson.decode(poll[1])
for i = 1, options do counts[i] = 0 end
local i = 1
for count in string.gmatch(poll[4] or '', '[^,]+') do
  counts[i] = tonumber(count)
  i = i + 1
end
for choice in string.gmatch(ARGV[2], '[^,]+') do
  local index = tonumber(choice) + 1
  counts[index] = counts[index] + 1
end
redis.call('HSET', KEYS[2], ARGV[1], ARGV[2])
redis.call('HSET', KEYS[1], 'poll_counts', table.concat(counts, ','))
redis.call('HINCRBY', KEYS[1], 'poll_voters', 1)
redis.call('PUBLISH', ARGV[4], KEYS[1])
return {1, ARGV[2]}
