-- Opening the notifications page: all of them read, in the reader's slot.
-- KEYS[1] their user hash  KEYS[2] their notifications
-- ARGV[1] time (whole ms)  ARGV[2] private channel  ARGV[3] their uid
-- Returns the unread messages count (the nav shows both).
if redis.call('EXISTS', KEYS[1]) == 0 then
  return false
end
-- Read up to the newest, whose score may be ahead of the time (notify.lua): every
-- notification there now is read, and every one made later scores after it.
local newest = redis.call('ZRANGE', KEYS[2], -1, -1, 'WITHSCORES')[2]
local read_at = math.max(tonumber(ARGV[1]), tonumber(newest or 0))
redis.call('HSET', KEYS[1], 'unread_notifications', 0, 'notifications_read_at',
  string.format('%d', read_at))
redis.call('PUBLISH', ARGV[2], '{"to":[' .. ARGV[3] .. '],"type":"notifications_read",'
  .. '"unread_notifications":0}')
return tonumber(redis.call('HGET', KEYS[1], 'unread_messages') or '0')
