-- Adds (ARGV[1] "add") or removes ("remove") one status in its shard's word index.
-- KEYS: for each word, its own set, then its bucket hash (all in the shard's slot).
-- ARGV[2]: the status's offset in the shard (0-65,535); ARGV[3]: the most offsets a
-- bucket keeps for a word; ARGV[4...]: the words, in KEYS's order.
-- A word is in its own set or its bucket's field (offsets packed 2 bytes each,
-- big-endian, ascending), never both: past the most a bucket keeps it moves to its own
-- set, and stays there while the set has any. A set holds offset - 32768: an intset's 2-byte entries are
-- signed (-32768 to 32767), so offsets past 32767 would make every entry 4 bytes.
-- Idempotent both ways.
local adding, offset, most = ARGV[1] == 'add', tonumber(ARGV[2]), tonumber(ARGV[3])
local BIAS = 32768

local function two_bytes(n)
  return string.char(math.floor(n / 256), n % 256)
end

local function unpacked(packed)
  local offsets = {}
  for at = 1, #packed - 1, 2 do
    offsets[#offsets + 1] = string.byte(packed, at) * 256 + string.byte(packed, at + 1)
  end
  return offsets
end

local function packed(offsets)
  local parts = {}
  for j = 1, #offsets do parts[j] = two_bytes(offsets[j]) end
  return table.concat(parts)
end

-- Moves a word's offsets (now past the most a bucket keeps) to its own set.
local function graduate(own, bucket, word, offsets)
  for j = 1, #offsets do offsets[j] = offsets[j] - BIAS end
  redis.call('SADD', own, unpack(offsets))
  redis.call('HDEL', bucket, word)
end

for i = 4, #ARGV do
  local word, own, bucket = ARGV[i], KEYS[2 * i - 7], KEYS[2 * i - 6]
  if redis.call('EXISTS', own) == 1 then
    redis.call(adding and 'SADD' or 'SREM', own, offset - BIAS)
  else
    local was = redis.call('HGET', bucket, word) or ''
    local newest = -1
    if #was > 0 then newest = string.byte(was, #was - 1) * 256 + string.byte(was, #was) end
    if adding and offset > newest and #was / 2 < most then
      -- A new post: its offset is the word's newest, appended as it is.
      redis.call('HSET', bucket, word, was .. two_bytes(offset))
    else
      local offsets = unpacked(was)
      local at = #offsets + 1
      while at > 1 and offsets[at - 1] >= offset do at = at - 1 end
      local held = offsets[at] == offset
      if adding and not held then
        table.insert(offsets, at, offset)
        if #offsets > most then
          graduate(own, bucket, word, offsets)
        else
          redis.call('HSET', bucket, word, packed(offsets))
        end
      elseif not adding and held then
        table.remove(offsets, at)
        if #offsets == 0 then
          redis.call('HDEL', bucket, word)
        else
          redis.call('HSET', bucket, word, packed(offsets))
        end
      end
    end
  end
end
return 1
