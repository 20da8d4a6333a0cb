-- Where the chunks of one big fan-out start, in the followers' slot, so that several
-- workers can share it: at the starts of pieces (pieces.lua), a cut once about ARGV[2]
-- followers are behind the last (a piece's start is where the follow time changes, so
-- followers tied at one instant are never shared by two chunks).
-- KEYS[1] followers  ARGV[1] cursor time  ARGV[2] chunk size  ARGV[3] most cuts
-- Returns {more, cut time...}: no cut if one chunk holds the rest; more is 1 if the
-- cuts ran out before the end (the last chunk is then split again).
-- include: lib/pieces
local base, size, most = KEYS[1], tonumber(ARGV[2]), tonumber(ARGV[3])
local key, start = piece_for(base, ARGV[1])
local behind = redis.call('ZCOUNT', key, ARGV[1], '+inf')
local cuts = {0}
for _, next_start in ipairs(starts_after(base, start, -1)) do
  if behind >= size then
    if #cuts > most then
      cuts[1] = 1
      break
    end
    cuts[#cuts + 1] = next_start
    behind = 0
  end
  behind = behind + redis.call('ZCARD', piece_key(base, next_start))
end
return cuts
