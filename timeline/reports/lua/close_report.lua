-- Closes an open report with a moderator's action, in the reports' slot ({queue}).
-- KEYS[1] the report's hash  KEYS[2] the open reports  KEYS[3] the target's open reports
-- KEYS[4] the reporter's open report on the target
-- ARGV[1] the report's id  ARGV[2] its new state  ARGV[3] the action as JSON
-- Returns 1, or 0 if the report isn't open (nothing changes).
if redis.call('HGET', KEYS[1], 'state') ~= 'open' then
  return 0
end
local actions = cjson.decode(redis.call('HGET', KEYS[1], 'actions') or '[]')
actions[#actions + 1] = cjson.decode(ARGV[3])
redis.call('HSET', KEYS[1], 'state', ARGV[2], 'actions', cjson.encode(actions))
redis.call('ZREM', KEYS[2], ARGV[1])
redis.call('ZREM', KEYS[3], ARGV[1])
if redis.call('GET', KEYS[4]) == ARGV[1] then
  redis.call('DEL', KEYS[4])
end
return 1
