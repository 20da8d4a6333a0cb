-- One shard's matches for a query, newest first: the ids in every word's set.
-- KEYS: the shard's id sets of the query's words (all in the shard's slot).
-- ARGV[1]: how many matches to skip; ARGV[2]: how many to return;
-- ARGV[3], ARGV[4]: the lowest and the highest id the shard can hold now.
-- Returns {how many matches it went through, the ids asked for}; the first is the
-- shard's whole count unless the page filled first (then the caller needs no more).
--
-- A set has no order to read a page from (an intset is sorted, but Redis reads a set
-- whole), so ids are asked about, newest first, WINDOW at a time (SMISMEMBER: a binary
-- search of each intset), the smallest set first: common words fill a page in the first
-- window. Once the windows have asked about as many ids as the smallest set holds, the
-- rest of that set is read whole (SMEMBERS) and asked of the others: rare words cost
-- their own size, and no query costs more than about twice reading its smallest set.
local skip, count = tonumber(ARGV[1]), tonumber(ARGV[2])
local low, top = tonumber(ARGV[3]), tonumber(ARGV[4])
local WINDOW = 500
local order, sizes = {}, {}
for i = 1, #KEYS do
  sizes[i] = redis.call('SCARD', KEYS[i])
  if sizes[i] == 0 then return {0, {}} end
  order[i] = i
end
table.sort(order, function(a, b) return sizes[a] < sizes[b] end)
local smallest = sizes[order[1]]

local ids, found = {}, 0
-- Keeps the `candidates` (newest first) every set from order[first] on holds.
local function keep(candidates, first)
  for k = first, #order do
    if #candidates == 0 then return end
    local held = redis.call('SMISMEMBER', KEYS[order[k]], unpack(candidates))
    local kept = {}
    for j = 1, #candidates do
      if held[j] == 1 then kept[#kept + 1] = candidates[j] end
    end
    candidates = kept
  end
  for j = 1, #candidates do
    found = found + 1
    if found > skip and #ids < count then ids[#ids + 1] = candidates[j] end
  end
end

local asked = 0
while top >= low and #ids < count and asked + WINDOW <= smallest do
  local window = {}
  for id = top, math.max(low, top - WINDOW + 1), -1 do window[#window + 1] = id end
  keep(window, 1)
  asked = asked + #window
  top = top - #window
end
if top >= low and #ids < count then
  -- An intset comes back in ascending order: read backwards it needs no sort (a set
  -- past set-max-intset-entries is a hash table, in no order).
  local members = redis.call('SMEMBERS', KEYS[order[1]])
  local rest, sorted = {}, true
  for j = #members, 1, -1 do
    local id = tonumber(members[j])
    if id <= top then
      if #rest > 0 and id > rest[#rest] then sorted = false end
      rest[#rest + 1] = id
    end
  end
  if not sorted then table.sort(rest, function(a, b) return a > b end) end
  for start = 1, #rest, WINDOW do
    if #ids >= count then break end
    keep({unpack(rest, start, math.min(#rest, start + WINDOW - 1))}, 2)
  end
end
return {found, ids}
