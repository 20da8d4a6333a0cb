-- Renames a list, in its slot, if ARGV[1] owns it.
-- KEYS[1] list hash  ARGV[1] owner uid  ARGV[2] new name
-- Returns 1; 0 if there is no such list; -1 if it is someone else's (left alone).
local owner = redis.call('HGET', KEYS[1], 'owner')
if not owner then
  return 0
end
if owner ~= ARGV[1] then
  return -1
end
redis.call('HSET', KEYS[1], 'name', ARGV[2])
return 1
