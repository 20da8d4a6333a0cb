-- Sets (or, with an empty card, removes) a status's link card, in its slot, only if the
-- status still exists and is still the version the card was fetched for: a card
-- fetched for a text since edited away never lands, nor recreates a deleted status.
-- KEYS[1] status hash
-- ARGV[1] the channel its change is published on (statuses.cache)
-- ARGV[2] the card's field  ARGV[3] the status's `edited` field when fetched ("" : never)
-- ARGV[4] the card (JSON; "" to remove it)
-- Returns {1, the card it replaced or ""}; {0, ""} if the status is gone or was edited.
if redis.call('EXISTS', KEYS[1]) == 0 then
  return {0, ''}
end
local edited = redis.call('HGET', KEYS[1], 'edited') or ''
if edited ~= ARGV[3] then
  return {0, ''}
end
local previous = redis.call('HGET', KEYS[1], ARGV[2]) or ''
if ARGV[4] == '' then
  if previous == '' then
    return {1, ''}
  end
  redis.call('HDEL', KEYS[1], ARGV[2])
else
  redis.call('HSET', KEYS[1], ARGV[2], ARGV[4])
end
redis.call('PUBLISH', ARGV[1], KEYS[1])
return {1, previous}
