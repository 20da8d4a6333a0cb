-- Adds a status to one home or list timeline, in the timeline's slot. Nothing is
-- added to the timeline of a deleted user or list (so late fan-out can't recreate
-- it), nor a repost whose original the timeline already shows among its `falloff`
-- newest entries, itself or through an earlier repost (Mastodon's rule).
-- KEYS[1] the timeline owner's hash (user or list)  KEYS[2] timeline
-- KEYS[3] reposts shown in it (original id -> repost id)
-- ARGV[1] status id  ARGV[2] its score (a list's timeline: timeline.scores)
-- ARGV[3] timeline size  ARGV[4] original id ('' : not a repost)  ARGV[5] falloff
-- ARGV[6] 'home' (a list of ids, newest at the head: feeds.home_list) or 'sorted' (a
-- sorted set scored by ARGV[2], newest last)
-- ARGV[7] '1': a fan-out chunk redone after a crash, so a home that holds the status
-- already is left as it is (a sorted set holds it once anyway)
-- Returns 1 if added, 0 if not.
if redis.call('EXISTS', KEYS[1]) == 0 then
  return 0
end
local size = tonumber(ARGV[3])
local original = ARGV[4]
local home = ARGV[6] == 'home'
if home and ARGV[7] == '1' and redis.call('LPOS', KEYS[2], ARGV[1]) then
  return 0
end
if original ~= '' then
  local falloff = tonumber(ARGV[5])
  local function recent(id)
    if home then
      return redis.call('LPOS', KEYS[2], id, 'MAXLEN', falloff)
    end
    local rank = redis.call('ZREVRANK', KEYS[2], id)
    return rank and rank < falloff
  end
  local shown = redis.call('ZSCORE', KEYS[3], original)
  if recent(original) or (shown and recent(shown)) then
    return 0
  end
  -- Scored by repost id, so trimming keeps the newest, like the timeline's.
  redis.call('ZADD', KEYS[3], ARGV[1], original)
  redis.call('ZREMRANGEBYRANK', KEYS[3], 0, -size - 1)
end
if home then
  redis.call('LPUSH', KEYS[2], ARGV[1])
  redis.call('LTRIM', KEYS[2], 0, size - 1)
else
  redis.call('ZADD', KEYS[2], ARGV[2], ARGV[1])
  redis.call('ZREMRANGEBYRANK', KEYS[2], 0, -size - 1)
end
return 1
