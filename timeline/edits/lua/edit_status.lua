-- Edits a status in its slot: keeps the version it replaces, then sets the new one.
-- KEYS[1] status hash  KEYS[2] its earlier versions (a list, oldest first)
-- ARGV[1] the editing uid  ARGV[2] the channel its change is published on (statuses.cache)
-- ARGV[3] when edited (whole microseconds)  ARGV[4] the most earlier versions kept
-- ARGV[5] the new message  ARGV[6] the new warning ('' : none)  ARGV[7] sensitive ('1' or '')
-- ARGV[8] '1' to set the warning (else it stays)  ARGV[9] '1' to set sensitive (else it stays)
-- Returns the fields as they were, as a flat list; 0 if there is no such status; -1 if
-- someone else wrote it; -2 for a repost; -3 if it has been edited too often; -4 if
-- nothing would change (no version is kept for it).
local author = redis.call('HGET', KEYS[1], 'uid')
if not author then
  return 0
end
if author ~= ARGV[1] then
  return -1
end
local fields = redis.call('HGETALL', KEYS[1])
local old = {}
for i = 1, #fields, 2 do
  old[fields[i]] = fields[i + 1]
end
if old['repost_of'] then
  return -2
end
local spoiler = old['spoiler_text'] or ''
local sensitive = old['sensitive'] or ''
local new_spoiler = ARGV[8] == '1' and ARGV[6] or spoiler
local new_sensitive = ARGV[9] == '1' and ARGV[7] or sensitive
if ARGV[5] == old['message'] and new_spoiler == spoiler and new_sensitive == sensitive then
  return -4
end
if redis.call('LLEN', KEYS[2]) >= tonumber(ARGV[4]) then
  return -3
end
-- The version replaced, and since when it was the status's: its posting or last edit.
-- The time as text: cjson writes a number to 14 digits, short of a microsecond's 16.
local version = {m = old['message'], t = old['edited'] or old['t']}
if spoiler ~= '' then version['s'] = spoiler end
if sensitive ~= '' then version['x'] = sensitive end
redis.call('RPUSH', KEYS[2], cjson.encode(version))
redis.call('HSET', KEYS[1], 'message', ARGV[5], 'edited', ARGV[3])
if new_spoiler == '' then
  redis.call('HDEL', KEYS[1], 'spoiler_text')
else
  redis.call('HSET', KEYS[1], 'spoiler_text', new_spoiler)
end
if new_sensitive == '' then
  redis.call('HDEL', KEYS[1], 'sensitive')
else
  redis.call('HSET', KEYS[1], 'sensitive', new_sensitive)
end
redis.call('PUBLISH', ARGV[2], KEYS[1])
return fields
