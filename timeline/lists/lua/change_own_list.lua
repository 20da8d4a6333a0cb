-- Changes a list, in its slot, if ARGV[1] owns it: sets its fields (its name, whether
-- it is private), or takes it (deletes it with its members, timeline and the reposts
-- shown in it). One script for both, so the owner check is written once.
-- KEYS[1] list hash  KEYS[2..4] with take: members, timeline, reposts shown in it
-- ARGV[1] owner uid  ARGV[2] 'set' or 'take'  ARGV[3..] with set: field, value pairs
-- Returns 0 if there is no such list, or it is someone else's private list (which
-- reads as none); -1 if it is someone else's public list (left alone); else 1 for
-- set, and for take the member uids (whose "listed in" sets still name the list).
local owner = redis.call('HGET', KEYS[1], 'owner')
if not owner then
  return 0
end
if owner ~= ARGV[1] then
  return redis.call('HGET', KEYS[1], 'private') == '1' and 0 or -1
end
if ARGV[2] == 'set' then
  redis.call('HSET', KEYS[1], unpack(ARGV, 3))
  return 1
end
local members = redis.call('ZRANGE', KEYS[2], 0, -1)
redis.call('DEL', KEYS[1], KEYS[2], KEYS[3], KEYS[4])
return members
