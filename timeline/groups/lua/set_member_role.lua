-- A member's new role, in the member's slot (their groups hash: group id -> "<role>
-- <show in home> <time joined>", timeline.follow_sets.members): only if the role they
-- hold now is one of those given, so a member who left meanwhile is not made one again.
-- KEYS[1] the member's groups hash
-- ARGV[1] the group's id  ARGV[2] the new role  ARGV[3] the roles it may replace
-- (space-separated)
-- Returns the role they held, or false if they hold none of those (nothing changes).
local state = redis.call('HGET', KEYS[1], ARGV[1])
if not state then
  return false
end
local role, rest = string.match(state, '^(%S+)(.*)$')
for allowed in string.gmatch(ARGV[3], '%S+') do
  if allowed == role then
    redis.call('HSET', KEYS[1], ARGV[1], ARGV[2] .. rest)
    return role
  end
end
return false
