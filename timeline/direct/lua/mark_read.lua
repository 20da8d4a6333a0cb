-- A member read a conversation (or left it), in their slot.
-- KEYS[1] their inbox  KEYS[2] their unread per conversation  KEYS[3] their user hash
-- ARGV[1] conversation id  ARGV[2] "1" if they left it  ARGV[3] private channel
-- ARGV[4] their uid
-- Returns {unread notifications, unread messages}.
local unread = tonumber(redis.call('HGET', KEYS[2], ARGV[1]) or '0')
redis.call('HDEL', KEYS[2], ARGV[1])
if ARGV[2] == '1' then
  redis.call('ZREM', KEYS[1], ARGV[1])
end
local total = tonumber(redis.call('HGET', KEYS[3], 'unread_messages') or '0')
if unread > 0 and redis.call('EXISTS', KEYS[3]) == 1 then
  total = math.max(total - unread, 0)
  redis.call('HSET', KEYS[3], 'unread_messages', total)
  redis.call('PUBLISH', ARGV[3], '{"to":[' .. ARGV[4] .. '],"type":"messages_read",'
    .. '"conversation":' .. ARGV[1] .. ',"unread_messages":' .. total .. '}')
end
return {tonumber(redis.call('HGET', KEYS[3], 'unread_notifications') or '0'), total}
