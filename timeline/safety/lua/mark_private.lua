-- Marks one status private or public, in the status's slot; nothing if it was deleted
-- (an HSET would leave a stray hash behind).
-- KEYS[1] the status hash  ARGV[1] the field ("private")  ARGV[2] "1": private, "": public
if redis.call('EXISTS', KEYS[1]) == 0 then
  return 0
end
if ARGV[2] == '1' then
  redis.call('HSET', KEYS[1], ARGV[1], '1')
else
  redis.call('HDEL', KEYS[1], ARGV[1])
end
return 1
