-- Removes a deleted status from its author's timelines, in the author's slot.
-- KEYS[1] user hash  KEYS[2] profile timeline  KEYS[3] home timeline (a list:
-- feeds.home_list)  ARGV[1] status id
if redis.call('ZREM', KEYS[2], ARGV[1]) == 1 then
  redis.call('HINCRBY', KEYS[1], 'posts', -1)
end
redis.call('LREM', KEYS[3], 0, ARGV[1])
return 1
