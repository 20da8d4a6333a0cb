-- Whether a user follows one other (following_read.lua), in their slot: one reply for a
-- pipeline, whatever the layout of their follows.
-- KEYS[1] their following (the base)  KEYS[2] the followee's bucket  ARGV[1] followee uid
-- Returns the follow time, or nothing.
return redis.call('ZSCORE', KEYS[1], ARGV[1]) or redis.call('ZSCORE', KEYS[2], ARGV[1])
