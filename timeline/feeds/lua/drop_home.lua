-- Drops a home timeline whose owner has not read it since before a cutoff, in the
-- owner's slot (so a return that just recorded a read keeps its home).
-- KEYS[1] user hash  KEYS[2] home timeline  KEYS[3] reposts shown in it
-- ARGV[1] the cutoff (Unix seconds)
-- Returns 1 if dropped, 0 if the owner read it since (or is gone).
local read = redis.call('HGET', KEYS[1], 'home_read')
if not read or tonumber(read) >= tonumber(ARGV[1]) then
  return 0
end
redis.call('UNLINK', KEYS[2], KEYS[3])
return 1
