-- One shard's matches for a query, newest first: the ids in every word's set.
-- KEYS: the shard's sets of the query's words (all in the shard's slot).
-- ARGV[1]: how many matches to skip; ARGV[2]: how many to return.
-- Returns {how many matches it went through, the ids asked for}; the first is the
-- shard's whole count unless the page filled first (then the caller needs no more).
--
-- Not ZINTERSTORE (Redis in Action 7.1): that builds the whole intersection to read a
-- page of it, ~25 ms for two common words in 100,000 statuses. This walks the smallest
-- set newest first, a chunk at a time, keeping the ids every other set has (ZMSCORE),
-- and stops once the page is full: common words fill it in the first chunk.
local skip, count = tonumber(ARGV[1]), tonumber(ARGV[2])
local CHUNK = 500
local smallest, size = 1, nil
for i = 1, #KEYS do
  local n = redis.call('ZCARD', KEYS[i])
  if n == 0 then return {0, {}} end
  if size == nil or n < size then smallest, size = i, n end
end
local ids, found = {}, 0
local start = 0
while start < size and #ids < count do
  local chunk = redis.call('ZREVRANGE', KEYS[smallest], start, start + CHUNK - 1)
  local kept = {}
  for j = 1, #chunk do kept[j] = true end
  for i = 1, #KEYS do
    if i ~= smallest then
      local scores = redis.call('ZMSCORE', KEYS[i], unpack(chunk))
      for j = 1, #chunk do
        if not scores[j] then kept[j] = false end
      end
    end
  end
  for j = 1, #chunk do
    if kept[j] then
      found = found + 1
      if found > skip and #ids < count then ids[#ids + 1] = chunk[j] end
    end
  end
  start = start + CHUNK
end
return {found, ids}
