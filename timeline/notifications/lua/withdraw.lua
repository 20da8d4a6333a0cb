-- Takes back a notification, in the recipient's slot; unread, it leaves the count.
-- Unread means scored after the last read: notify.lua and mark_read.lua make that exact.
-- KEYS[1] their notifications  KEYS[2] their mention notifications  KEYS[3] their user hash
-- ARGV[1] member  ARGV[2] private channel  ARGV[3] recipient uid
-- Returns 1 if it was there, else 0.
local made = redis.call('ZSCORE', KEYS[1], ARGV[1])
redis.call('ZREM', KEYS[2], ARGV[1])
if not made then
  return 0
end
redis.call('ZREM', KEYS[1], ARGV[1])
local read_at = tonumber(redis.call('HGET', KEYS[3], 'notifications_read_at') or '0')
local unread = tonumber(redis.call('HGET', KEYS[3], 'unread_notifications') or '0')
if tonumber(made) > read_at and unread > 0 then
  unread = redis.call('HINCRBY', KEYS[3], 'unread_notifications', -1)
  redis.call('PUBLISH', ARGV[2], '{"to":[' .. ARGV[3] .. '],"type":"notification_withdrawn",'
    .. '"unread_notifications":' .. unread .. '}')
end
return 1
