-- Counts one event into Explore's trends, at most once (every worker process listens,
-- so each event arrives once per worker): a status's engagement, and a public status's
-- links, each link once a day per author.
-- KEYS[1] events already counted (zset: event id -> time seen)
-- KEYS[2] the engaged status's hour bucket (zset: status id -> engagement)
-- KEYS[3] the links' hour bucket (zset: link -> new authors)
-- KEYS[4] when each author's use of each link was last counted (zset: "uid link" -> time)
-- KEYS[5] the day's link uses  KEYS[6] the day's link accounts (zsets: link -> count)
-- KEYS[7] the day's "uid link" pairs counted in KEYS[6] (set)
-- ARGV[1] event id  ARGV[2] now  ARGV[3] the engaged status id ("" for none)
-- ARGV[4] its engagement (signed)  ARGV[5] when the hour buckets expire (Unix s)
-- ARGV[6] the links' author (uid)  ARGV[7] when they were posted (Unix s)
-- ARGV[8] when the day's keys expire  ARGV[9..] the links
-- Returns 1 if counted, 0 if the event was counted already.
if redis.call('ZADD', KEYS[1], 'NX', ARGV[2], ARGV[1]) == 0 then
  return 0
end
-- Copies of one event arrive within moments of each other: an hour of memory is plenty.
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', tonumber(ARGV[2]) - 3600)
redis.call('EXPIRE', KEYS[1], 3600)
if ARGV[3] ~= '' then
  redis.call('ZINCRBY', KEYS[2], ARGV[4], ARGV[3])
  redis.call('EXPIREAT', KEYS[2], ARGV[5])
end
if #ARGV < 9 then
  return 1
end
local posted = tonumber(ARGV[7])
-- Counted once a day per author: an author's second use within the day adds nothing.
redis.call('ZREMRANGEBYSCORE', KEYS[4], '-inf', tonumber(ARGV[2]) - 86400)
for i = 9, #ARGV do
  local pair = ARGV[6] .. ' ' .. ARGV[i]
  local last = redis.call('ZSCORE', KEYS[4], pair)
  if not last or tonumber(last) <= posted - 86400 then
    redis.call('ZADD', KEYS[4], posted, pair)
    redis.call('ZINCRBY', KEYS[3], 1, ARGV[i])
  end
  redis.call('ZINCRBY', KEYS[5], 1, ARGV[i])
  if redis.call('SADD', KEYS[7], pair) == 1 then
    redis.call('ZINCRBY', KEYS[6], 1, ARGV[i])
  end
end
redis.call('EXPIREAT', KEYS[3], ARGV[5])
redis.call('EXPIRE', KEYS[4], 86400)
for i = 5, 7 do
  redis.call('EXPIREAT', KEYS[i], ARGV[8])
end
return 1
