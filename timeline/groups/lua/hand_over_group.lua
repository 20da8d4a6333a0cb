-- Hands a group over, the group's step, in its slot: the new owner in the group hash,
-- the old one among the moderators (the new one no longer listed there).
-- KEYS[1] the group's hash  KEYS[2] its moderators
-- ARGV[1] the owner now  ARGV[2] the new owner  ARGV[3] time
-- Returns 1, or 0 if ARGV[1] doesn't own the group (or it is gone): nothing changes.
if redis.call('HGET', KEYS[1], 'owner') ~= ARGV[1] then
  return 0
end
redis.call('HSET', KEYS[1], 'owner', ARGV[2])
redis.call('ZREM', KEYS[2], ARGV[2])
redis.call('ZADD', KEYS[2], ARGV[3], ARGV[1])
return 1
