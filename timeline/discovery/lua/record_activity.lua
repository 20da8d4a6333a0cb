-- Counts one posted or deleted status into the activity buckets, at most once
-- (every worker process listens, so each event arrives once per worker).
-- KEYS[1] events already counted (zset: event id -> time seen)
-- KEYS[2] the status's hour post counter  KEYS[3] its minute's #tag counts
-- KEYS[4] its minute's @mention counts
-- ARGV[1] event id  ARGV[2] now  ARGV[3] 1 for a post, -1 for a deletion
-- ARGV[4] when the hour counter expires  ARGV[5] when the minute buckets expire (Unix s)
-- ARGV[6] how many tags follow (n)  ARGV[7..6+n] tags  ARGV[7+n..] mentions
-- Returns 1 if counted, 0 if the event was counted already.
if redis.call('ZADD', KEYS[1], 'NX', ARGV[2], ARGV[1]) == 0 then
  return 0
end
-- Copies of one event arrive within moments of each other: an hour of memory is plenty.
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', tonumber(ARGV[2]) - 3600)
local delta = tonumber(ARGV[3])
-- Posts per hour counts what was posted; a deletion only takes back its trending terms.
if delta > 0 then
  redis.call('INCR', KEYS[2])
  redis.call('EXPIREAT', KEYS[2], ARGV[4])
end
local last_tag = 6 + tonumber(ARGV[6])
for i = 7, #ARGV do
  redis.call('ZINCRBY', i <= last_tag and KEYS[3] or KEYS[4], delta, ARGV[i])
end
-- EXPIREAT on a missing key does nothing; one in the past drops a stale bucket at once.
redis.call('EXPIREAT', KEYS[3], ARGV[5])
redis.call('EXPIREAT', KEYS[4], ARGV[5])
return 1
