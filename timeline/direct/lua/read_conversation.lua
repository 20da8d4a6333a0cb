-- A page of a conversation, for a member only, in its slot.
-- KEYS[1] its hash  KEYS[2] its members  KEYS[3] its messages  KEYS[4] its timeline
-- ARGV[1] reader uid  ARGV[2] first index  ARGV[3] last index (newest first)
-- Returns {its hash (flat), member uid, login pairs, messages as JSON}, or nothing.
if redis.call('HEXISTS', KEYS[2], ARGV[1]) == 0 then
  return false
end
local ids = redis.call('ZREVRANGE', KEYS[4], ARGV[2], ARGV[3])
local messages = {}
if #ids > 0 then
  messages = redis.call('HMGET', KEYS[3], unpack(ids))
end
return {redis.call('HGETALL', KEYS[1]), redis.call('HGETALL', KEYS[2]), messages}
