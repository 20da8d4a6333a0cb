-- A new conversation, in its own slot.
-- KEYS[1] its hash  KEYS[2] its members
-- ARGV[1] kind (direct|group)  ARGV[2] time  ARGV[3..] member uid, login pairs
redis.call('HSET', KEYS[1], 'kind', ARGV[1], 'created', ARGV[2], 'next_message', 0)
redis.call('HSET', KEYS[2], unpack(ARGV, 3))
return 1
