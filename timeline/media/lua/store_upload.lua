-- An upload's record, its place in its uploader's index and the bytes it adds to their
-- quota's use, in one step unless that would pass the quota (all in the uploader's slot).
-- KEYS[1] the attachment's hash  KEYS[2] the uploader's index  KEYS[3] their bytes kept
-- ARGV[1] attachment id  ARGV[2] upload time  ARGV[3] bytes  ARGV[4] the quota (bytes)
-- ARGV[5..] the hash's fields and values
-- Returns the bytes kept after it, or -1 (nothing stored) over the quota.
local kept = tonumber(redis.call('GET', KEYS[3]) or '0')
local adding = tonumber(ARGV[3])
if kept + adding > tonumber(ARGV[4]) then
  return -1
end
local fields = {}
for i = 5, #ARGV do
  fields[#fields + 1] = ARGV[i]
end
redis.call('HSET', KEYS[1], unpack(fields))
redis.call('ZADD', KEYS[2], ARGV[2], ARGV[1])
return redis.call('INCRBY', KEYS[3], adding)
