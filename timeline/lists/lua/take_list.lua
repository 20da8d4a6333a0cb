-- Deletes a list, in its slot, if ARGV[1] owns it.
-- KEYS[1] list hash  KEYS[2] members  KEYS[3] timeline  KEYS[4] reposts shown in it
-- ARGV[1] owner uid
-- Returns the member uids (whose "listed in" sets still name the list); 0 if there
-- is no such list, or it is someone else's private list (which reads as none); -1 if
-- it is someone else's public list (left alone).
local owner = redis.call('HGET', KEYS[1], 'owner')
if not owner then
  return 0
end
if owner ~= ARGV[1] then
  return redis.call('HGET', KEYS[1], 'private') == '1' and 0 or -1
end
local members = redis.call('ZRANGE', KEYS[2], 0, -1)
redis.call('DEL', KEYS[1], KEYS[2], KEYS[3], KEYS[4])
return members
