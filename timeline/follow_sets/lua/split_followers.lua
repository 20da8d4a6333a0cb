-- Cuts followers kept in one key (as before pieces, or tied at one instant) into
-- pieces (pieces.lua) of at most ARGV[1], newest first, in their slot; idempotent.
-- KEYS[1] followers  ARGV[1] piece size  ARGV[2] most pieces to make in this call
-- Returns how many pieces it made (fewer than ARGV[2]: nothing is left to cut).
-- include: lib/pieces
local base, size, most = KEYS[1], tonumber(ARGV[1]), tonumber(ARGV[2])
local made = 0
while made < most do
  local card = redis.call('ZCARD', base)
  if card <= size or not split_piece(base, base, card - size) then
    break
  end
  made = made + 1
end
return made
