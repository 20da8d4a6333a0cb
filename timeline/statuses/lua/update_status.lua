-- Sets fields of a status hash, in its slot, only if the status still exists (a
-- plain HSET on a status deleted meanwhile would leave a headless hash behind).
-- KEYS[1] status hash  ARGV[1] the channel its change is published on (statuses.cache)
-- ARGV[2..] field, value pairs
-- Returns 1 if set, 0 if the status is gone.
if redis.call('EXISTS', KEYS[1]) == 0 then
  return 0
end
redis.call('HSET', KEYS[1], unpack(ARGV, 2))
redis.call('PUBLISH', ARGV[1], KEYS[1])
return 1
