-- Clearing all of a user's notifications (the client API's clear), in their slot.
-- KEYS[1] their notifications  KEYS[2] their mention notifications  KEYS[3] their user hash
-- ARGV[1] private channel  ARGV[2] their uid
-- Returns how many there were.
local count = redis.call('ZCARD', KEYS[1])
redis.call('DEL', KEYS[1], KEYS[2])
if redis.call('EXISTS', KEYS[3]) == 1 then
  redis.call('HSET', KEYS[3], 'unread_notifications', 0)
  redis.call('PUBLISH', ARGV[1], '{"to":[' .. ARGV[2] .. '],"type":"notifications_read",'
    .. '"unread_notifications":0}')
end
return count
