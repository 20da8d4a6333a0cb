-- Closes a status's poll once it is due, in the status's slot: after this it takes no
-- votes and shows its counts to all. Safe to run again (a job redone).
-- KEYS[1] status hash
-- ARGV[1] now (Unix seconds)  ARGV[2] the channel a change is published on
-- Returns 1 when it closed it now; 2 if it was closed already (a job redone); 0 if the
-- status or its poll is gone; -1 if it isn't due yet.
local poll = redis.call('HMGET', KEYS[1], 'poll_options', 'poll_expires', 'poll_closed')
if not poll[1] then
  return 0
end
if poll[3] == '1' then
  return 2
end
if tonumber(ARGV[1]) < tonumber(poll[2]) then
  return -1
end
redis.call('HSET', KEYS[1], 'poll_closed', '1')
redis.call('PUBLISH', ARGV[2], KEYS[1])
return 1
