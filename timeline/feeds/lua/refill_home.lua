-- Refill, in the user's slot: adds the newest statuses of people the user still
-- follows (and their own) to their home timeline, then trims it. A source no longer
-- followed is skipped: they may have been unfollowed since their statuses were read.
-- KEYS[1] the user's following  KEYS[2] their home timeline
-- ARGV[1] uid  ARGV[2] home size
-- ARGV[3..] groups of: source uid, n, then n score, id pairs
-- Returns how many entries were new to home (before trimming).
local added = 0
local i = 3
while i <= #ARGV do
  local source, n = ARGV[i], tonumber(ARGV[i + 1])
  local last = i + 1 + 2 * n
  if source == ARGV[1] or redis.call('ZSCORE', KEYS[1], source) then
    -- Chunks keep each ZADD's arguments well under Lua's stack limit.
    for j = i + 2, last, 1000 do
      added = added + redis.call('ZADD', KEYS[2], unpack(ARGV, j, math.min(j + 999, last)))
    end
  end
  i = i + 2 + 2 * n
end
redis.call('ZREMRANGEBYRANK', KEYS[2], 0, -tonumber(ARGV[2]) - 1)
return added
