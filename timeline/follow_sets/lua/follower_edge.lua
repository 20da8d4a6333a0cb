-- One follower among a user's followers (pieces.lua), in their slot, for the repair
-- (timeline.ops.maintenance): its follow time, or put back, or taken out. Counts are
-- not touched (the repair checks them on their own).
-- KEYS[1] followers  ARGV[1] 'score', 'add' or 'remove'  ARGV[2] follower uid
-- ARGV[3] its follow time (for 'score', as the follower's following set says: '+inf'
-- if not known)  ARGV[4] for 'add', the piece size
-- Returns the follow time (or nil) for 'score', else 1 if it changed anything, 0 if not.
-- include: lib/pieces
if ARGV[1] == 'score' then
  return redis.call('ZSCORE', piece_for(KEYS[1], ARGV[3]), ARGV[2])
elseif ARGV[1] == 'add' then
  return add_follower(KEYS[1], ARGV[2], ARGV[3], tonumber(ARGV[4]))
end
return remove_follower(KEYS[1], ARGV[2], ARGV[3])
