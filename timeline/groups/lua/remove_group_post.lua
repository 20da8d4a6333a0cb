-- Takes a post off its group's timeline and pins, in the group's slot.
-- KEYS[1] the group's hash  KEYS[2] the group's timeline
-- ARGV[1] the status id
-- Returns 1 if it was on the timeline, else 0.
local pins = {}
for id in string.gmatch(redis.call('HGET', KEYS[1], 'pinned') or '', '[^,]+') do
  if id ~= ARGV[1] then
    pins[#pins + 1] = id
  end
end
if redis.call('EXISTS', KEYS[1]) == 1 then
  redis.call('HSET', KEYS[1], 'pinned', table.concat(pins, ','))
end
return redis.call('ZREM', KEYS[2], ARGV[1])
