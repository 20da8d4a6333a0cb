-- Converts a user's notifications stored before compact members (data migration 0006),
-- in their slot: "kind:object:actor uid:actor login" scored in Unix seconds becomes
-- services.notification_member scored in whole milliseconds, and so does their last read.
-- Members stored compact already are left alone.
-- KEYS[1] their notifications  KEYS[2] their mention notifications  KEYS[3] their user hash
-- ARGV[1] the follow kind  ARGV[2] a time under this is Unix seconds
-- ARGV[3...] each other kind, then its letter
-- Returns how many notifications it converted.
local seconds_below = tonumber(ARGV[2])
local letters = {}
for i = 3, #ARGV, 2 do
  letters[ARGV[i]] = ARGV[i + 1]
end
local function in_ms(time)
  if time < seconds_below then
    return time * 1000
  end
  return time
end
-- Unread stays unread: one made after the read scores after it, even in its millisecond.
local read_at = in_ms(tonumber(redis.call('HGET', KEYS[3], 'notifications_read_at') or '0'))
local read_ms = math.floor(read_at)
local converted = 0
for k = 1, 2 do
  local found = redis.call('ZRANGE', KEYS[k], 0, -1, 'WITHSCORES')
  for i = 1, #found, 2 do
    local kind, object, actor = string.match(found[i], '^(%a+):(%d+):(%d+):')
    if kind then
      local member = actor
      if kind ~= ARGV[1] then
        member = letters[kind] .. object .. ':' .. actor
      end
      local made = in_ms(tonumber(found[i + 1]))
      local score = math.floor(made)
      if made > read_at then
        score = math.max(score, read_ms + 1)
      end
      redis.call('ZREM', KEYS[k], found[i])
      redis.call('ZADD', KEYS[k], string.format('%d', score), member)
      converted = converted + 1
    end
  end
end
if read_ms > 0 then
  redis.call('HSET', KEYS[3], 'notifications_read_at', string.format('%d', read_ms))
end
return converted
