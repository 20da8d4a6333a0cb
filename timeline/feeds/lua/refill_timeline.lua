-- Refill, in the timeline's slot: adds the newest statuses of the sources still
-- followed (a home: the people followed, and its owner's own) or still members (a
-- list) to the timeline, then trims it. A source gone from the set is skipped: it may
-- have left since its statuses were read. Nothing is added to the timeline of a
-- deleted user or list (so a late refill can't recreate it).
-- KEYS[1] the timeline owner's hash (user or list)  KEYS[2] the sources set
-- KEYS[3] the timeline
-- ARGV[1] the owner's uid, whose own statuses a home holds ('' for a list)
-- ARGV[2], ARGV[3] the ranks to remove to keep the newest of a full timeline
-- (timeline.scores)  ARGV[4..] groups of: source uid, n, then n score, id pairs
-- Returns how many entries were new to the timeline (before trimming).
if redis.call('EXISTS', KEYS[1]) == 0 then
  return 0
end
local added = 0
local i = 4
while i <= #ARGV do
  local source, n = ARGV[i], tonumber(ARGV[i + 1])
  local last = i + 1 + 2 * n
  if source == ARGV[1] or redis.call('ZSCORE', KEYS[2], source) then
    -- Chunks keep each ZADD's arguments well under Lua's stack limit.
    for j = i + 2, last, 1000 do
      added = added + redis.call('ZADD', KEYS[3], unpack(ARGV, j, math.min(j + 999, last)))
    end
  end
  i = i + 2 + 2 * n
end
redis.call('ZREMRANGEBYRANK', KEYS[3], ARGV[2], ARGV[3])
return added
