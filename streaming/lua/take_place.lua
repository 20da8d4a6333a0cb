-- Takes a place in a set of open streams that allows only so many, in that set's slot
-- (a client address's streams): forgets places their server stopped renewing first.
-- KEYS[1] the open streams (connection id -> expiry time)
-- ARGV[1] now  ARGV[2] connection id  ARGV[3] its expiry time  ARGV[4] places allowed
-- ARGV[5] seconds the set outlives its last renewal
-- Returns 1 taken; 0 all the places are taken.
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', ARGV[1])
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[4]) then
  return 0
end
redis.call('ZADD', KEYS[1], ARGV[3], ARGV[2])
redis.call('EXPIRE', KEYS[1], ARGV[5])
return 1
