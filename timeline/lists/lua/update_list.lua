-- Sets fields of a list (its name, whether it is private), in its slot, if ARGV[1]
-- owns it.
-- KEYS[1] list hash  ARGV[1] owner uid  ARGV[2..] field, value pairs
-- Returns 1; 0 if there is no such list, or it is someone else's private list (which
-- reads as none); -1 if it is someone else's public list (left alone).
local owner = redis.call('HGET', KEYS[1], 'owner')
if not owner then
  return 0
end
if owner ~= ARGV[1] then
  return redis.call('HGET', KEYS[1], 'private') == '1' and 0 or -1
end
redis.call('HSET', KEYS[1], unpack(ARGV, 2))
return 1
