-- A page of followers, newest follow first, across pieces (pieces.lua), in their slot.
-- The pieces' index is read newest first only as far as the page: in batches of as many
-- pieces as hold the page's depth when full (fewer once some unfollow: then another).
-- KEYS[1] followers  ARGV[1] how many of the newest to pass over  ARGV[2] most to return
-- ARGV[3] the pieces' size (FOLLOWERS_PIECE_SIZE)
-- Returns their uids.
-- include: lib/pieces
local base = KEYS[1]
local offset, count = tonumber(ARGV[1]), tonumber(ARGV[2])
local batch = math.floor((offset + count) / tonumber(ARGV[3])) + 2
local found, from, last = {}, 0, false
while not last and #found < count do
  local starts = redis.call('ZREVRANGE', piece_index(base), from, from + batch - 1)
  from = from + batch
  if #starts < batch then
    -- The base, oldest of all, after the oldest piece.
    starts[#starts + 1] = ''
    last = true
  end
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
end
return found
