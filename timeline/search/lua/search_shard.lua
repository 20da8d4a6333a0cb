-- One shard's matches for a query, newest first: the ids with every word of it.
-- KEYS: for each word, its own set, then its bucket hash (all in the shard's slot).
-- ARGV[1]: how many matches to skip; ARGV[2]: how many to return;
-- ARGV[3], ARGV[4]: the shard's first id and the highest id it can hold now;
-- ARGV[5...]: the words, in KEYS's order.
-- Returns {how many matches it went through, the ids asked for}; the first is the
-- shard's whole count unless the page filled first (then the caller needs no more).
-- The index holds each id as its offset from the shard's first id, a set that offset
-- - 32768 (index_words.lua).
--
-- A word still in its bucket has few offsets (SEARCH_BUCKET_IDS at most): the shortest
-- such list, newest first, asked of the other words' lists and sets (SMISMEMBER), is
-- the whole answer. When every word has its own set (common words), a set has no order
-- to read a page from (an intset is sorted, but Redis reads a set whole). Two ways, by
-- the share of the shard's ids expected to match (as if the words were independent):
-- - windows: ids asked about newest first, a window at a time (SMISMEMBER: a binary
--   search of each intset), the smallest set first, when the page is expected within
--   fewer ids than the whole intersection holds: common words fill it in one window;
-- - the whole intersection (SINTER, in C: each id of the smallest set looked up in the
--   others), newest first: rarer words cost about their own size. Windows that ask about
--   as many ids as the intersection was expected to hold give way to it, so a query
--   costs about twice the cheaper way at most, as far as its words are independent
--   (two words each in half the statuses that never meet ask about a quarter of the
--   shard's ids first).
local skip, count = tonumber(ARGV[1]), tonumber(ARGV[2])
local first = tonumber(ARGV[3])
local low, top = 0, tonumber(ARGV[4]) - first
local BIAS = 32768
local sets, sizes, shortest, lists = {}, {}, nil, {}
for i = 5, #ARGV do
  local own, bucket = KEYS[2 * i - 9], KEYS[2 * i - 8]
  local size = redis.call('SCARD', own)
  if size > 0 then
    sets[#sets + 1] = own
    sizes[own] = size
  else
    local packed = redis.call('HGET', bucket, ARGV[i])
    if not packed then return {0, {}} end
    local offsets = {}
    for at = #packed - 1, 1, -2 do
      offsets[#offsets + 1] = string.byte(packed, at) * 256 + string.byte(packed, at + 1)
    end
    lists[#lists + 1] = offsets
    if not shortest or #offsets < #shortest then shortest = offsets end
  end
end
table.sort(sets, function(a, b) return sizes[a] < sizes[b] end)

local ids, found = {}, 0
-- Counts `matches` (offsets, newest first) and takes the ids the page asks for.
local function take(matches)
  for j = 1, #matches do
    found = found + 1
    if found > skip and #ids < count then ids[#ids + 1] = first + matches[j] end
  end
end

-- The `candidates` that every set in `sets` holds, in their order.
local function held_by_sets(candidates)
  for k = 1, #sets do
    if #candidates == 0 then break end
    local members = {}
    for j = 1, #candidates do members[j] = candidates[j] - BIAS end
    local held = redis.call('SMISMEMBER', sets[k], unpack(members))
    local kept = {}
    for j = 1, #candidates do
      if held[j] == 1 then kept[#kept + 1] = candidates[j] end
    end
    candidates = kept
  end
  return candidates
end

if shortest then
  local candidates = {}
  for j = 1, #shortest do
    if shortest[j] <= top then candidates[#candidates + 1] = shortest[j] end
  end
  for _, offsets in ipairs(lists) do
    if offsets ~= shortest then
      local has, kept = {}, {}
      for j = 1, #offsets do has[offsets[j]] = true end
      for j = 1, #candidates do
        if has[candidates[j]] then kept[#kept + 1] = candidates[j] end
      end
      candidates = kept
    end
  end
  take(held_by_sets(candidates))
  return {found, ids}
end

local span = top - low + 1
local density = 1
for k = 1, #sets do density = density * math.min(1, sizes[sets[k]] / span) end
local expected = density * span

local asked = 0
local windows = (skip + count) / density < expected
while windows and top >= low and #ids < count and asked < expected do
  -- Half as many ids again as the rest of the page is expected to need.
  local size = math.max(64, math.min(1000, math.ceil(1.5 * (skip + count - found) / density)))
  local candidates = {}
  for offset = top, math.max(low, top - size + 1), -1 do candidates[#candidates + 1] = offset end
  asked = asked + #candidates
  top = top - #candidates
  take(held_by_sets(candidates))
end
if top >= low and #ids < count then
  -- An intset comes back in ascending order, so read backwards it needs no sort (a set
  -- past set-max-intset-entries is a hash table, in no order).
  local both = redis.call('SINTER', unpack(sets))
  local rest, sorted = {}, true
  for j = #both, 1, -1 do
    local offset = tonumber(both[j]) + BIAS
    if offset <= top then
      if #rest > 0 and offset > rest[#rest] then sorted = false end
      rest[#rest + 1] = offset
    end
  end
  if not sorted then table.sort(rest, function(a, b) return a > b end) end
  take(rest)
end
return {found, ids}
