-- Deletes attachments' records, their places in their uploader's index and the bytes
-- they kept (the uploader's slot); their files went first. Idempotent.
-- KEYS[1] the uploader's index  KEYS[2] their bytes kept  KEYS[3..] the attachments' hashes
-- ARGV the attachments' ids, in KEYS[3..]'s order  Returns how many were there.
local deleted, freed = 0, 0
for i = 3, #KEYS do
  local bytes = redis.call('HGET', KEYS[i], 'n')
  if redis.call('DEL', KEYS[i]) == 1 then
    deleted = deleted + 1
    freed = freed + tonumber(bytes or '0')
  end
  redis.call('ZREM', KEYS[1], ARGV[i - 2])
end
if freed > 0 then
  local left = redis.call('DECRBY', KEYS[2], freed)
  if left <= 0 then
    redis.call('DEL', KEYS[2])
  end
end
return deleted
