-- One shard's matches for a query: every word's set intersected (a single word's set
-- read as it is), newest first.
-- KEYS[1]: the shard's scratch set; KEYS[2..]: the shard's sets of the query's words.
-- ARGV[1]: how many matches to skip; ARGV[2]: how many to return.
-- Returns {how many match in the shard, the ids asked for}.
local skip, count = tonumber(ARGV[1]), tonumber(ARGV[2])
local source = KEYS[2]
if #KEYS > 2 then
  for i = 2, #KEYS do
    if redis.call('EXISTS', KEYS[i]) == 0 then return {0, {}} end
  end
  -- Scores add up (each is the id), which keeps the order by id.
  redis.call('ZINTERSTORE', KEYS[1], #KEYS - 1, unpack(KEYS, 2))
  source = KEYS[1]
end
local total = redis.call('ZCARD', source)
local ids = {}
if count > 0 and skip < total then
  ids = redis.call('ZREVRANGE', source, skip, skip + count - 1)
end
if source == KEYS[1] then redis.call('DEL', KEYS[1]) end
return {total, ids}
