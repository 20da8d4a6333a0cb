-- Deletes a status hash if ARGV[1] wrote it, in the status's slot.
-- KEYS[1] status hash  ARGV[1] the deleting uid ('' : any author, for moderators)
-- ARGV[2] the channel its change is published on (statuses.cache)
-- Returns the deleted fields as a flat list; 0 if there is no such status;
-- -1 if it belongs to someone else (and is left alone).
local author = redis.call('HGET', KEYS[1], 'uid')
if not author then
  return 0
end
if ARGV[1] ~= '' and author ~= ARGV[1] then
  return -1
end
local fields = redis.call('HGETALL', KEYS[1])
redis.call('DEL', KEYS[1])
redis.call('PUBLISH', ARGV[2], KEYS[1])
return fields
