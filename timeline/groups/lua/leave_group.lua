-- Leave (or a request withdrawn), step 2, in the group's slot (step 1 took the group
-- out of the member's groups hash): the member leaves the set (lib/pieces.lua) and the
-- count; any request goes. The owner never leaves this way (they hand over first).
-- KEYS[1] group hash  KEYS[2] members  KEYS[3] requests  KEYS[4] members with "show
-- in home" off
-- ARGV[1] uid  ARGV[2] their join time ('+inf' if not known: the newest piece)
-- Returns {1 if they were a member else 0, the members count}, or {-1, count} for the
-- owner (nothing changes).
-- include: ../../follow_sets/lua/lib/pieces
local count = function() return tonumber(redis.call('HGET', KEYS[1], 'members') or '0') end
if redis.call('HGET', KEYS[1], 'owner') == ARGV[1] then
  return {-1, count()}
end
redis.call('ZREM', KEYS[3], ARGV[1])
redis.call('SREM', KEYS[4], ARGV[1])
local removed = remove_follower(KEYS[2], ARGV[1], ARGV[2])
if removed == 1 and redis.call('EXISTS', KEYS[1]) == 1 then
  redis.call('HINCRBY', KEYS[1], 'members', -1)
end
return {removed, count()}
