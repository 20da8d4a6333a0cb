-- One shard's matches for a query, newest first: the ids in every word's set.
-- KEYS: the shard's id sets of the query's words (all in the shard's slot).
-- ARGV[1]: how many matches to skip; ARGV[2]: how many to return;
-- ARGV[3], ARGV[4]: the lowest and the highest id the shard can hold now.
-- Returns {how many matches it went through, the ids asked for}; the first is the
-- shard's whole count unless the page filled first (then the caller needs no more).
--
-- A set has no order to read a page from (an intset is sorted, but Redis reads a set
-- whole). Two ways, by the share of the shard's ids expected to match (as if the words
-- were independent):
-- - windows: ids asked about newest first, a window at a time (SMISMEMBER: a binary
--   search of each intset), the smallest set first, when the page is expected within
--   fewer ids than the whole intersection holds: common words fill it in one window;
-- - the whole intersection (SINTER, in C: each id of the smallest set looked up in the
--   others), newest first: rare words cost about their own size. Windows that ask about
--   as many ids as the intersection was expected to hold give way to it, so a query
--   costs about twice the cheaper way at most, as far as its words are independent
--   (two words each in half the statuses that never meet ask about a quarter of the
--   shard's ids first).
local skip, count = tonumber(ARGV[1]), tonumber(ARGV[2])
local low, top = tonumber(ARGV[3]), tonumber(ARGV[4])
local order, sizes = {}, {}
for i = 1, #KEYS do
  sizes[i] = redis.call('SCARD', KEYS[i])
  if sizes[i] == 0 then return {0, {}} end
  order[i] = i
end
table.sort(order, function(a, b) return sizes[a] < sizes[b] end)
local span = top - low + 1
local density = 1
for i = 1, #KEYS do density = density * math.min(1, sizes[i] / span) end
local expected = density * span

local ids, found = {}, 0
-- Counts `matches` (newest first) and takes those the page asks for.
local function take(matches)
  for j = 1, #matches do
    found = found + 1
    if found > skip and #ids < count then ids[#ids + 1] = matches[j] end
  end
end

local asked = 0
local windows = (skip + count) / density < expected
while windows and top >= low and #ids < count and asked < expected do
  -- Half as many ids again as the rest of the page is expected to need.
  local size = math.max(64, math.min(1000, math.ceil(1.5 * (skip + count - found) / density)))
  local candidates = {}
  for id = top, math.max(low, top - size + 1), -1 do candidates[#candidates + 1] = id end
  asked = asked + #candidates
  top = top - #candidates
  for k = 1, #order do
    if #candidates == 0 then break end
    local held = redis.call('SMISMEMBER', KEYS[order[k]], unpack(candidates))
    local kept = {}
    for j = 1, #candidates do
      if held[j] == 1 then kept[#kept + 1] = candidates[j] end
    end
    candidates = kept
  end
  take(candidates)
end
if top >= low and #ids < count then
  -- An intset comes back in ascending order, so read backwards it needs no sort (a set
  -- past set-max-intset-entries is a hash table, in no order).
  local both = redis.call('SINTER', unpack(KEYS))
  local rest, sorted = {}, true
  for j = #both, 1, -1 do
    local id = tonumber(both[j])
    if id <= top then
      if #rest > 0 and id > rest[#rest] then sorted = false end
      rest[#rest + 1] = id
    end
  end
  if not sorted then table.sort(rest, function(a, b) return a > b end) end
  take(rest)
end
return {found, ids}
