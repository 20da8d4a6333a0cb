-- A message, in the conversation's slot, if its author is a member.
-- KEYS[1] its hash  KEYS[2] its members  KEYS[3] its messages  KEYS[4] its timeline
-- ARGV[1] author uid  ARGV[2] time  ARGV[3] the message as JSON, without its id
-- Returns {message id, the message as JSON, member uids}, or nothing for a non-member.
if redis.call('HEXISTS', KEYS[2], ARGV[1]) == 0 then
  return false
end
local id = redis.call('HINCRBY', KEYS[1], 'next_message', 1)
local message = cjson.decode(ARGV[3])
message['id'] = id
local json = cjson.encode(message)
redis.call('HSET', KEYS[3], id, json)
redis.call('ZADD', KEYS[4], ARGV[2], id)
redis.call('HSET', KEYS[1], 'last', json, 'last_sent', ARGV[2])
return {id, json, redis.call('HKEYS', KEYS[2])}
