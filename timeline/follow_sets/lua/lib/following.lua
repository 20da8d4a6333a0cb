-- Changing whom a user follows (timeline.follow_sets.following, following_read.lua for the
-- layout): local functions for the scripts that write follows, each of which includes
-- following_read first.
-- Moves the base's oldest `most` follows (all if fewer) into their buckets. Returns
-- how many are left in the base.
local function following_move(base, n, most)
  local moved = redis.call('ZRANGE', base, 0, most - 1, 'WITHSCORES')
  local by_bucket = {}
  for i = 1, #moved, 2 do
    local bucket = tonumber(moved[i]) % n
    local args = by_bucket[bucket] or {}
    by_bucket[bucket] = args
    args[#args + 1] = moved[i + 1]
    args[#args + 1] = moved[i]
  end
  -- In bucket order (a script's writes in a fixed order), and in chunks well under
  -- Lua's stack limit.
  for bucket = 0, n - 1 do
    local args = by_bucket[bucket]
    if args then
      for i = 1, #args, 2000 do
        redis.call('ZADD', base .. ':' .. bucket, unpack(args, i, math.min(i + 1999, #args)))
      end
    end
  end
  if #moved > 0 then
    redis.call('ZREMRANGEBYRANK', base, 0, #moved / 2 - 1)
  end
  return redis.call('ZCARD', base)
end

-- Records that the owner follows `uid` since `score` unless they do already; past
-- `split` follows in the base, all move into buckets. Returns 1 if added, else 0.
local function following_add(base, n, split, uid, score)
  if following_score(base, n, uid) then
    return 0
  end
  redis.call('ZADD', base, score, uid)
  if redis.call('ZCARD', base) > split then
    following_move(base, n, split + 1)
  end
  return 1
end

-- Forgets that the owner follows `uid`. Returns 1 if they did, else 0.
local function following_remove(base, n, uid)
  return redis.call('ZREM', base, uid) + redis.call('ZREM', following_bucket(base, n, uid), uid)
end
