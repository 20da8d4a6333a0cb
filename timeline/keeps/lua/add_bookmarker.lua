-- Notes who bookmarked a status, in the status's slot, only while the status exists,
-- so that its deletion's job finds every bookmark to take back.
-- KEYS[1] status hash  KEYS[2] its bookmarkers (uid -> time bookmarked)
-- ARGV[1] uid  ARGV[2] time bookmarked
-- Returns 1 if added; -1 if it was there already; 0 if the status is gone.
if redis.call('EXISTS', KEYS[1]) == 0 then
  return 0
end
if redis.call('ZADD', KEYS[2], 'NX', ARGV[2], ARGV[1]) == 0 then
  return -1
end
return 1
