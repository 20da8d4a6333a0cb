-- Join, step 1, in the group's slot: record the member (in the piece of their join
-- time, lib/pieces.lua) and count them - unless the group is gone or bans them; a
-- private group records a request instead, until a moderator approves it.
-- KEYS[1] group hash  KEYS[2] members  KEYS[3] requests  KEYS[4] banned
-- KEYS[5] members with "show in home" off (a new member starts with it on)
-- ARGV[1] uid  ARGV[2] time  ARGV[3] the pieces' size  ARGV[4] "approve": a moderator
-- approves their request (there must be one), else "join"  ARGV[5] their join time as
-- their groups hash says ('': none)
-- Returns {outcome: "member", "requested", "banned", "no_request" or "gone", the join
-- (or request) time, the members count}.
-- include: ../../follow_sets/lua/lib/pieces
if redis.call('EXISTS', KEYS[1]) == 0 then
  return {'gone', '', 0}
end
local count = function() return tonumber(redis.call('HGET', KEYS[1], 'members') or '0') end
if redis.call('ZSCORE', KEYS[4], ARGV[1]) then
  return {'banned', '', count()}
end
local since = ARGV[5] ~= '' and ARGV[5] or ARGV[2]
local piece = piece_for(KEYS[2], since)
local joined = redis.call('ZSCORE', piece, ARGV[1])
if not joined and ARGV[5] == '' then
  -- Their own hash names no join time (a first join, or a join whose second step was
  -- lost): every piece is asked, so nobody is kept twice.
  for _, start in ipairs(redis.call('ZRANGE', piece_index(KEYS[2]), 0, -1)) do
    joined = joined or redis.call('ZSCORE', piece_key(KEYS[2], start), ARGV[1])
  end
  joined = joined or redis.call('ZSCORE', KEYS[2], ARGV[1])
end
if joined then
  redis.call('ZREM', KEYS[3], ARGV[1])
  return {'member', joined, count()}
end
local asked = redis.call('ZSCORE', KEYS[3], ARGV[1])
if ARGV[4] == 'approve' then
  if not asked then
    return {'no_request', '', count()}
  end
  since = ARGV[2]
  piece = piece_for(KEYS[2], since)
elseif redis.call('HGET', KEYS[1], 'kind') == 'private' then
  if asked then
    return {'requested', asked, count()}
  end
  redis.call('ZADD', KEYS[3], ARGV[2], ARGV[1])
  return {'requested', ARGV[2], count()}
end
redis.call('ZREM', KEYS[3], ARGV[1])
if add_to_piece(KEYS[2], piece, ARGV[1], since, tonumber(ARGV[3])) == 1 then
  redis.call('HINCRBY', KEYS[1], 'members', 1)
  redis.call('SREM', KEYS[5], ARGV[1])
end
return {'member', since, count()}
