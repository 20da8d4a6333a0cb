-- Removes a member from one of a status's reply, repost or like sets and uncounts
-- it (a deleted status keeps no hash, so there is nothing to uncount).
-- KEYS[1] status hash  KEYS[2] the set
-- ARGV[1] count field  ARGV[2] member  ARGV[3] its expected score ('' : any)
-- ARGV[4] the channel a change is published on (statuses.cache)
-- Returns 1 if removed, 0 if it wasn't there (or had another score).
if ARGV[3] ~= '' then
  local score = redis.call('ZSCORE', KEYS[2], ARGV[2])
  if not score or tonumber(score) ~= tonumber(ARGV[3]) then
    return 0
  end
end
if redis.call('ZREM', KEYS[2], ARGV[2]) == 0 then
  return 0
end
if redis.call('EXISTS', KEYS[1]) == 1 then
  redis.call('HINCRBY', KEYS[1], ARGV[1], -1)
  redis.call('PUBLISH', ARGV[4], KEYS[1])
end
return 1
