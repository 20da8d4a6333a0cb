-- A message reaches one member's inbox, in their slot, and their open pages.
-- KEYS[1] their inbox  KEYS[2] their unread per conversation  KEYS[3] their user hash
-- ARGV[1] conversation id  ARGV[2] time  ARGV[3] "1" if it is unread for them
-- ARGV[4] private channel  ARGV[5] their uid  ARGV[6] the message as JSON
if redis.call('EXISTS', KEYS[3]) == 0 then
  return false
end
redis.call('ZADD', KEYS[1], ARGV[2], ARGV[1])
local unread = tonumber(redis.call('HGET', KEYS[2], ARGV[1]) or '0')
local total = tonumber(redis.call('HGET', KEYS[3], 'unread_messages') or '0')
if ARGV[3] == '1' then
  unread = redis.call('HINCRBY', KEYS[2], ARGV[1], 1)
  total = redis.call('HINCRBY', KEYS[3], 'unread_messages', 1)
end
redis.call('PUBLISH', ARGV[4], '{"to":[' .. ARGV[5] .. '],"type":"message","conversation":'
  .. ARGV[1] .. ',"unread":' .. unread .. ',"unread_messages":' .. total
  .. ',"message":' .. ARGV[6] .. '}')
return total
