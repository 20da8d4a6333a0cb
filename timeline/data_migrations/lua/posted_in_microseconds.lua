-- Rewrites a status hash stored before statuses.layout: its posted time, seconds as
-- text under 'posted', moves to 't' as whole microseconds (rounded half up, as
-- timeline.scores.microseconds), and its 'id' field (its key says the same) goes.
-- A hash that is gone is left gone.
-- KEYS[1] the status hash  ARGV[1] microseconds a second
-- Returns 1 if it rewrote the hash, 0 if there was nothing to rewrite.
local posted = redis.call('HGET', KEYS[1], 'posted')
if posted and redis.call('HEXISTS', KEYS[1], 't') == 0 then
  local micro = math.floor(tonumber(posted) * tonumber(ARGV[1]) + 0.5)
  redis.call('HSET', KEYS[1], 't', string.format('%d', micro))
end
return math.min(redis.call('HDEL', KEYS[1], 'posted', 'id'), 1)
