-- The highest of the hour buckets, each weighted by its age: a sum kept only while read.
-- KEYS[1] where the sum is made (zset, deleted before returning)
-- KEYS[2..] the hour buckets (zsets: member -> count)
-- ARGV[1] how many to return  ARGV[2..] each bucket's weight, in KEYS' order
-- Returns member, score, member, score ... highest first, none at or below 0 (deletions
-- and unlikes of what was counted before the listener started can leave those).
local buckets = #KEYS - 1
local weighted = {'ZUNIONSTORE', KEYS[1], buckets}
for i = 2, #KEYS do weighted[#weighted + 1] = KEYS[i] end
weighted[#weighted + 1] = 'WEIGHTS'
for i = 2, #ARGV do weighted[#weighted + 1] = ARGV[i] end
redis.call(unpack(weighted))
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', 0)
local ranked = redis.call('ZREVRANGE', KEYS[1], 0, tonumber(ARGV[1]) - 1, 'WITHSCORES')
redis.call('DEL', KEYS[1])
return ranked
