-- Files a report, in the reports' slot ({queue}): one open report per reporter and target.
-- KEYS[1] the reporter's open report on this target  KEYS[2] the report's hash
-- KEYS[3] the open reports  KEYS[4] the target's open reports
-- ARGV[1] the report's id  ARGV[2] time filed  ARGV[3..] its fields as field, value pairs
-- Returns 1, or the id of the reporter's open report on the target (and files nothing).
local open = redis.call('GET', KEYS[1])
if open then
  return {0, open}
end
redis.call('SET', KEYS[1], ARGV[1])
redis.call('HSET', KEYS[2], unpack(ARGV, 3))
redis.call('ZADD', KEYS[3], ARGV[2], ARGV[1])
redis.call('ZADD', KEYS[4], ARGV[2], ARGV[1])
return {1, ARGV[1]}
