-- Pins a group's post (newest pin first, at most ARGV[3]) or unpins it, in the group's
-- slot: the pins are the group hash's "pinned" field, status ids joined by commas.
-- KEYS[1] the group's hash  KEYS[2] the group's timeline
-- ARGV[1] the status id  ARGV[2] "pin" or "unpin"  ARGV[3] most pins
-- Returns {"ok", the pins}, or {"gone"} (no group), {"not_here"} (not a post of the
-- group's timeline: pinning only), {"full"} (as many pins as it takes).
if redis.call('EXISTS', KEYS[1]) == 0 then
  return {'gone'}
end
local pins = {}
for id in string.gmatch(redis.call('HGET', KEYS[1], 'pinned') or '', '[^,]+') do
  if id ~= ARGV[1] then
    pins[#pins + 1] = id
  end
end
if ARGV[2] == 'pin' then
  if not redis.call('ZSCORE', KEYS[2], ARGV[1]) then
    return {'not_here'}
  end
  if #pins >= tonumber(ARGV[3]) then
    return {'full'}
  end
  table.insert(pins, 1, ARGV[1])
end
local joined = table.concat(pins, ',')
redis.call('HSET', KEYS[1], 'pinned', joined)
return {'ok', joined}
