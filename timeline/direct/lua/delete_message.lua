-- Its author deletes a message, in the conversation's slot.
-- KEYS[1] its hash  KEYS[2] its members  KEYS[3] its messages  KEYS[4] its timeline
-- ARGV[1] author uid  ARGV[2] message id  ARGV[3] private channel
-- ARGV[4] conversation id
-- Returns 1 if deleted, 0 if no such message (or not a member), -1 if someone else's.
if redis.call('HEXISTS', KEYS[2], ARGV[1]) == 0 then
  return 0
end
local json = redis.call('HGET', KEYS[3], ARGV[2])
if not json then
  return 0
end
if tostring(cjson.decode(json)['uid']) ~= ARGV[1] then
  return -1
end
redis.call('HDEL', KEYS[3], ARGV[2])
redis.call('ZREM', KEYS[4], ARGV[2])
local last = redis.call('ZREVRANGE', KEYS[4], 0, 0)
if #last > 0 then
  redis.call('HSET', KEYS[1], 'last', redis.call('HGET', KEYS[3], last[1]))
else
  redis.call('HDEL', KEYS[1], 'last')
end
redis.call('PUBLISH', ARGV[3], '{"to":[' .. table.concat(redis.call('HKEYS', KEYS[2]), ',')
  .. '],"type":"message_deleted","conversation":' .. ARGV[4] .. ',"id":' .. ARGV[2] .. '}')
return 1
