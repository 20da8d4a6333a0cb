-- Opening the notifications page: all of them read, in the reader's slot.
-- KEYS[1] their user hash  ARGV[1] time  ARGV[2] private channel  ARGV[3] their uid
-- Returns the unread messages count (the nav shows both).
if redis.call('EXISTS', KEYS[1]) == 0 then
  return false
end
redis.call('HSET', KEYS[1], 'unread_notifications', 0, 'notifications_read_at', ARGV[1])
redis.call('PUBLISH', ARGV[2], '{"to":[' .. ARGV[3] .. '],"type":"notifications_read",'
  .. '"unread_notifications":0}')
return tonumber(redis.call('HGET', KEYS[1], 'unread_messages') or '0')
