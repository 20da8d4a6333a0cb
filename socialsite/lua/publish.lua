-- PUBLISH from a Redis Cluster pipeline (see socialsite.events.publish).
-- KEYS: none. ARGV: the channel, the message.
return redis.call('PUBLISH', ARGV[1], ARGV[2])
