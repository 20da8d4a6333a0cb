-- Refill of a list's timeline, in its slot: adds the newest statuses of the members
-- still on the list, then trims it. A member gone from the set is skipped: they may
-- have left since their statuses were read. Nothing is added to the timeline of a
-- deleted list (so a late refill can't recreate it). (A home is refilled by
-- merge_home.lua: homes are lists of ids.)
-- KEYS[1] the list's hash  KEYS[2] its members  KEYS[3] its timeline
-- ARGV[1], ARGV[2] the ranks to remove to keep the newest of a full timeline
-- (timeline.scores)  ARGV[3..] groups of: member uid, n, then n score, id pairs
-- Returns how many entries were new to the timeline (before trimming).
if redis.call('EXISTS', KEYS[1]) == 0 then
  return 0
end
local added = 0
local i = 3
while i <= #ARGV do
  local source, n = ARGV[i], tonumber(ARGV[i + 1])
  local last = i + 1 + 2 * n
  if redis.call('ZSCORE', KEYS[2], source) then
    -- Chunks keep each ZADD's arguments well under Lua's stack limit.
    for j = i + 2, last, 1000 do
      added = added + redis.call('ZADD', KEYS[3], unpack(ARGV, j, math.min(j + 999, last)))
    end
  end
  i = i + 2 + 2 * n
end
redis.call('ZREMRANGEBYRANK', KEYS[3], ARGV[1], ARGV[2])
return added
