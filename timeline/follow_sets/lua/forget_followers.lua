-- Forgets followers (pieces.lua), in their slot: an account's deletion, once each
-- has unfollowed it. The followed user's count goes as they do.
-- KEYS[1] followed user's hash  KEYS[2] their followers  ARGV follower uid, follow time...
-- Returns how many were removed.
-- include: lib/pieces
local removed = 0
for i = 1, #ARGV, 2 do
  removed = removed + remove_follower(KEYS[2], ARGV[i], ARGV[i + 1])
end
if removed > 0 and redis.call('EXISTS', KEYS[1]) == 1 then
  redis.call('HINCRBY', KEYS[1], 'followers', -removed)
end
return removed
