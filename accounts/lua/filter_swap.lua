-- Replaces one field of a user's filters hash only if it still holds what the caller
-- read (compare and set): a filter written by two requests at once keeps one whole.
-- KEYS[1] the filters hash (accounts.keys.filters_key)
-- ARGV[1] the field (a filter id); ARGV[2] its value as read ("" for none);
-- ARGV[3] the new value ("" to delete it)
-- Returns 1 if written, 0 if the field changed meanwhile.
local current = redis.call('HGET', KEYS[1], ARGV[1]) or ''
if current ~= ARGV[2] then
  return 0
end
if ARGV[3] == '' then
  redis.call('HDEL', KEYS[1], ARGV[1])
else
  redis.call('HSET', KEYS[1], ARGV[1], ARGV[3])
end
return 1
