-- Ends an attachment's processing: "ready" with its files' fields, or "failed" saying
-- why; the bytes it keeps change by what its files now take (the uploader's slot).
-- KEYS[1] the attachment's hash  KEYS[2] the uploader's bytes kept
-- ARGV[1] bytes now kept  ARGV[2..] fields and values to set (STATE left out: ready)
-- Returns {1, the status it is attached to or ""}; {0, ""} if it is gone or done already.
local found = redis.call('HMGET', KEYS[1], 's', 'n', 'a')
if found[1] ~= 'processing' then
  return {0, ''}
end
local fields = {}
for i = 2, #ARGV do
  fields[#fields + 1] = ARGV[i]
end
redis.call('HDEL', KEYS[1], 's')
redis.call('HSET', KEYS[1], unpack(fields))
redis.call('INCRBY', KEYS[2], tonumber(ARGV[1]) - tonumber(found[2] or '0'))
return {1, found[3] or ''}
