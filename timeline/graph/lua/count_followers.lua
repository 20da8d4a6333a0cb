-- How many followers a user has, across pieces (pieces.lua), in their slot.
-- KEYS[1] followers
-- Returns the count.
-- include: pieces
local total = redis.call('ZCARD', KEYS[1])
for _, start in ipairs(redis.call('ZRANGE', piece_index(KEYS[1]), 0, -1)) do
  total = total + redis.call('ZCARD', piece_key(KEYS[1], start))
end
return total
