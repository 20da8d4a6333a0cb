-- Opens a stream on a stream key, in the key owner's slot: checks the key and its
-- owner, forgets connections whose server stopped renewing them, and takes a slot.
-- KEYS[1] the stream key's hash  KEYS[2] its open connections (id -> expiry time)
-- KEYS[3] the owner's user hash
-- ARGV[1] the key's digest  ARGV[2] now  ARGV[3] connection id  ARGV[4] its expiry time
-- ARGV[5] streams allowed per key  ARGV[6] seconds the connection set outlives its last renewal
-- Returns 1 opened; 0 the key already has its limit of open streams; -1 unknown key;
-- -2 the owner is suspended.
if redis.call('HGET', KEYS[1], 'digest') ~= ARGV[1] then
  return -1
end
if redis.call('HGET', KEYS[3], 'suspended') == '1' then
  return -2
end
redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', ARGV[2])
if redis.call('ZCARD', KEYS[2]) >= tonumber(ARGV[5]) then
  return 0
end
redis.call('ZADD', KEYS[2], ARGV[4], ARGV[3])
redis.call('EXPIRE', KEYS[2], ARGV[6])
redis.call('HSET', KEYS[1], 'last_used', ARGV[2])
return 1
