-- A member leaves a group conversation, in its slot.
-- KEYS[1] its hash  KEYS[2] its members
-- ARGV[1] their uid
-- Returns 1 if they left, 0 if they weren't a member, -1 for a one-to-one conversation.
if redis.call('HEXISTS', KEYS[2], ARGV[1]) == 0 then
  return 0
end
if redis.call('HGET', KEYS[1], 'kind') ~= 'group' then
  return -1
end
redis.call('HDEL', KEYS[2], ARGV[1])
return 1
