-- Retires a home stored the book's way (home:{uid}), in its owner's slot: takes it
-- away and counts the owner's home as dropped for inactivity (feeds.homes), so their
-- next read queues the refill that rebuilds it, stored the new way.
-- KEYS[1] user hash  KEYS[2] the old home  KEYS[3] reposts shown in it
-- ARGV[1] the last read to record (long ago)
-- Returns how many of the two keys it took away.
local taken = redis.call('UNLINK', KEYS[2], KEYS[3])
if taken > 0 and redis.call('EXISTS', KEYS[1]) == 1 then
  redis.call('HSET', KEYS[1], 'home_read', ARGV[1])
end
return taken
