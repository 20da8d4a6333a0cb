-- Moves a user's follows kept in one key past the split's size (as before buckets, or
-- written in bulk) into buckets (following.lua), in their slot, some at a time;
-- idempotent.
-- KEYS[1] their following (the base)  ARGV[1] buckets  ARGV[2] the split's size
-- ARGV[3] most to move in this call
-- Returns how many are left to move (0: done; the base holds none, or no more than
-- the split's size and no buckets were made).
-- include: lib/following_read
-- include: lib/following
local base, n, split = KEYS[1], tonumber(ARGV[1]), tonumber(ARGV[2])
if redis.call('ZCARD', base) <= split and #following_keys(base, n) == 1 then
  return 0
end
return following_move(base, n, tonumber(ARGV[3]))
