-- Followers in pieces (timeline.follow_sets.followers): local functions for the scripts that
-- include this. A user's followers are their followers key alone (the base) until it
-- holds more than a piece's size; then the newer follows go to pieces `<base>:<start>`,
-- each holding the follows from time <start> up to the next piece's start, listed in
-- `<base>:pieces` (start as score and member). The base keeps the follows before the
-- first start. A piece is cut only where the follow time changes, so followers tied at
-- one instant share a piece, and every key is in the base's slot.
local function piece_index(base)
  return base .. ':pieces'
end

local function piece_key(base, start)
  if start == '' then
    return base
  end
  return base .. ':' .. start
end

-- The piece that holds (or would hold) a follow at time `score`, and its start ('':
-- the base).
local function piece_for(base, score)
  local start = redis.call('ZREVRANGEBYSCORE', piece_index(base), score, '-inf', 'LIMIT', 0, 1)[1]
  return piece_key(base, start or ''), start or ''
end

-- The starts of the pieces after the one starting at `start`, oldest first (`most`: -1
-- for all).
local function starts_after(base, start, most)
  local from = start == '' and '-inf' or '(' .. start
  return redis.call('ZRANGEBYSCORE', piece_index(base), from, '+inf', 'LIMIT', 0, most)
end

-- Moves the follows of piece `key` from rank `keep` on into a new piece. If the follow
-- time at that rank began earlier (ties), the cut goes just after that run, or before
-- it if the run reaches the newest. Returns false if the piece is one run of ties (it
-- stays whole).
local function split_piece(base, key, keep)
  local card = redis.call('ZCARD', key)
  local cut = redis.call('ZRANGE', key, keep, keep, 'WITHSCORES')[2]
  local run_start = redis.call('ZCOUNT', key, '-inf', '(' .. cut)
  if run_start < keep then
    local after_run = redis.call('ZCOUNT', key, '-inf', cut)
    if after_run < card then
      cut = redis.call('ZRANGE', key, after_run, after_run, 'WITHSCORES')[2]
    elseif run_start == 0 then
      return false
    end
  end
  local moved = redis.call('ZRANGEBYSCORE', key, cut, '+inf', 'WITHSCORES')
  local piece = piece_key(base, cut)
  -- ZADD wants score, member; chunks keep each call well under Lua's stack limit.
  for i = 1, #moved, 1000 do
    local args = {}
    for j = i, math.min(i + 999, #moved), 2 do
      args[#args + 1] = moved[j + 1]
      args[#args + 1] = moved[j]
    end
    redis.call('ZADD', piece, unpack(args))
  end
  redis.call('ZREMRANGEBYSCORE', key, cut, '+inf')
  redis.call('ZADD', piece_index(base), cut, cut)
  return true
end

-- Adds `member` followed at `score` to `key`, that time's piece (piece_for), unless it
-- is there already; a piece past `size` splits, its newest going to a new piece.
-- Returns 1 if added, else 0.
local function add_to_piece(base, key, member, score, size)
  if redis.call('ZADD', key, 'NX', score, member) == 0 then
    return 0
  end
  if redis.call('ZCARD', key) > size then
    split_piece(base, key, size)
  end
  return 1
end

-- add_to_piece in the piece of `score`.
local function add_follower(base, member, score, size)
  return add_to_piece(base, piece_for(base, score), member, score, size)
end

-- Removes `member`, followed at `score` ('+inf' if not known: the newest piece is
-- looked in). Returns 1 if removed, else 0.
local function remove_follower(base, member, score)
  local key, start = piece_for(base, score)
  if redis.call('ZREM', key, member) == 0 then
    return 0
  end
  if start ~= '' and redis.call('EXISTS', key) == 0 then
    redis.call('ZREM', piece_index(base), start)
  end
  return 1
end
