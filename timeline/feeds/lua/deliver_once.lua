-- Delivers a status to one home when a fan-out chunk is redone (a worker died in it,
-- having pushed to some of its homes), in the home's slot: pushed only if the home
-- holds it nowhere, nor is full of newer statuses (it was pushed, then trimmed away).
-- The first run of a chunk pushes without looking (feeds.home_list.delivery).
-- KEYS[1] home (a list of ids, newest at the head: feeds.home_list)
-- ARGV[1] status id  ARGV[2] home size  ARGV[3] '1' to trim the home after the push
-- Returns 1 if pushed, 0 if not.
if redis.call('LPOS', KEYS[1], ARGV[1]) then
  return 0
end
local size = tonumber(ARGV[2])
if redis.call('LLEN', KEYS[1]) >= size then
  if tonumber(redis.call('LINDEX', KEYS[1], -1)) > tonumber(ARGV[1]) then
    return 0
  end
end
redis.call('LPUSH', KEYS[1], ARGV[1])
if ARGV[3] == '1' then
  redis.call('LTRIM', KEYS[1], 0, size - 1)
end
return 1
