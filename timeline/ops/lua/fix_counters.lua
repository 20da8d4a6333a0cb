-- Sets a user's counters to the sizes of the sets they count, in the user's slot,
-- so a follow or post racing with the repair can't leave them wrong.
-- KEYS[1] user hash  KEYS[2] followers  KEYS[3] following  KEYS[4] profile timeline
-- Returns 1, or 0 (and changes nothing) if the user doesn't exist.
if redis.call('EXISTS', KEYS[1]) == 0 then
  return 0
end
redis.call('HSET', KEYS[1],
  'followers', redis.call('ZCARD', KEYS[2]),
  'following', redis.call('ZCARD', KEYS[3]),
  'posts', redis.call('ZCARD', KEYS[4]))
return 1
