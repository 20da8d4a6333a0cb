-- A page of followers, newest follow first, across pieces (pieces.lua), in their slot.
-- KEYS[1] followers  ARGV[1] how many of the newest to pass over  ARGV[2] most to return
-- Returns their uids.
-- include: pieces
local base = KEYS[1]
local offset, count = tonumber(ARGV[1]), tonumber(ARGV[2])
local starts = redis.call('ZREVRANGE', piece_index(base), 0, -1)
starts[#starts + 1] = ''
local found = {}
for _, start in ipairs(starts) do
  local key = piece_key(base, start)
  local card = redis.call('ZCARD', key)
  if offset >= card then
    offset = offset - card
  else
    local got = redis.call('ZREVRANGE', key, offset, offset + count - #found - 1)
    for _, uid in ipairs(got) do
      found[#found + 1] = uid
    end
    offset = 0
    if #found >= count then
      break
    end
  end
end
return found
