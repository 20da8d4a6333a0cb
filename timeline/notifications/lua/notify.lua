-- A new notification, in the recipient's slot; nothing if they are gone or it exists,
-- or if either of them blocks the other or the recipient mutes the actor (timeline.safety).
-- KEYS[1] their notifications  KEYS[2] their mention notifications  KEYS[3] their user hash
-- KEYS[4] whom they block  KEYS[5] who blocks them  KEYS[6] whom they mute
-- KEYS[7] whom they follow (timeline.follow_sets.following)
-- KEYS[8] their groups (timeline.follow_sets.members: group id -> "<role> ...")
-- ARGV[1] member  ARGV[2] time (whole ms)  ARGV[3] cap  ARGV[4] "1" for a mention or reply
-- ARGV[5] private channel  ARGV[6] recipient uid  ARGV[7] the notification as JSON
-- ARGV[8] the actor's uid  ARGV[9] "1": only if they follow the actor (a private status)
-- ARGV[10] the buckets of a following set
-- ARGV[11] a private group's id: only if they are its member ('': any)
-- Returns the unread count, or nothing if no notification was added.
-- include: ../../follow_sets/lua/lib/following_read
if redis.call('EXISTS', KEYS[3]) == 0 then
  return false
end
if redis.call('ZSCORE', KEYS[4], ARGV[8]) or redis.call('ZSCORE', KEYS[5], ARGV[8]) then
  return false
end
local mute_ends = redis.call('ZSCORE', KEYS[6], ARGV[8])
if mute_ends and tonumber(mute_ends) > tonumber(ARGV[2]) / 1000 then
  return false
end
if ARGV[9] == '1' and not following_score(KEYS[7], tonumber(ARGV[10]), ARGV[8]) then
  return false
end
if ARGV[11] ~= '' then
  local role = string.match(redis.call('HGET', KEYS[8], ARGV[11]) or '', '^(%a+)')
  if role ~= 'owner' and role ~= 'moderator' and role ~= 'member' then
    return false
  end
end
if redis.call('ZSCORE', KEYS[1], ARGV[1]) then
  return false
end
-- Its score is its time, but after the set's newest and the last read (mark_read.lua):
-- notifications made in one millisecond stay in the order they were made, and one made
-- after a read, even in the read's millisecond, is after it (withdraw.lua's unread count).
local score = tonumber(ARGV[2])
local newest = redis.call('ZRANGE', KEYS[1], -1, -1, 'WITHSCORES')[2]
local read_at = redis.call('HGET', KEYS[3], 'notifications_read_at')
score = math.max(score, tonumber(newest or 0) + 1, tonumber(read_at or 0) + 1)
score = string.format('%d', score)
redis.call('ZADD', KEYS[1], score, ARGV[1])
local cap = tonumber(ARGV[3])
redis.call('ZREMRANGEBYRANK', KEYS[1], 0, -cap - 1)
if ARGV[4] == '1' then
  redis.call('ZADD', KEYS[2], score, ARGV[1])
  redis.call('ZREMRANGEBYRANK', KEYS[2], 0, -cap - 1)
end
local unread = math.min(redis.call('HINCRBY', KEYS[3], 'unread_notifications', 1), cap)
redis.call('HSET', KEYS[3], 'unread_notifications', unread)
-- The notification as published names its id (its score) and its actor's uid, so that a
-- stream can show it as the client API does (selectors.entry_of_event).
local notification = '{"id":"' .. score .. '","actor_id":' .. ARGV[8] .. ',' .. string.sub(ARGV[7], 2)
redis.call('PUBLISH', ARGV[5], '{"to":[' .. ARGV[6] .. '],"type":"notification","unread_notifications":'
  .. unread .. ',"notification":' .. notification .. '}')
return unread
