-- Files a report on a group's post, in the reports' slot ({queue}): into the group's own
-- queue, for its moderators, and due to go to the site's queue if they leave it open.
-- One open report per reporter and target, as file_report.lua.
-- KEYS[1] the reporter's open report on this target  KEYS[2] the report's hash
-- KEYS[3] the group's open reports  KEYS[4] the target's open reports
-- KEYS[5] the group reports' escalation times
-- ARGV[1] the report's id  ARGV[2] time filed  ARGV[3] when it escalates
-- ARGV[4..] its fields as field, value pairs
-- Returns {1, its id}, or {0, the reporter's open report's id} (and files nothing).
local open = redis.call('GET', KEYS[1])
if open then
  return {0, open}
end
redis.call('SET', KEYS[1], ARGV[1])
redis.call('HSET', KEYS[2], unpack(ARGV, 4))
redis.call('ZADD', KEYS[3], ARGV[2], ARGV[1])
redis.call('ZADD', KEYS[4], ARGV[2], ARGV[1])
redis.call('ZADD', KEYS[5], ARGV[3], ARGV[1])
return {1, ARGV[1]}
