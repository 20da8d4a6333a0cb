-- Follow, step 1, in the followed user's slot: record the follower - unless either
-- blocks the other, or the followed account is private and hasn't approved them (then
-- the request is recorded instead).
-- KEYS[1] followed user's hash  KEYS[2] their followers  KEYS[3] their profile timeline
-- KEYS[4] whom they block  KEYS[5] who blocks them  KEYS[6] requests to follow them
-- ARGV[1] follower uid  ARGV[2] time  ARGV[3] newest profile entries to return
-- ARGV[4] "1": the followed user approves a request (there must be one)
-- ARGV[5] when the follower followed them, as their following set says ('': not
-- following: the piece that holds it, see pieces.lua)  ARGV[6] the followers' piece size
-- Returns {their login, their newest profile entries as a flat {id, score, ...} list,
-- outcome: "followed", "requested", "blocked" or "no_request", "1" if their account is
-- private else ""}, or {} (and changes nothing) if the followed user doesn't exist.
-- include: lib/pieces
if redis.call('EXISTS', KEYS[1]) == 0 then
  return {}
end
local login = redis.call('HGET', KEYS[1], 'login')
local private = redis.call('HGET', KEYS[1], 'private') or ''
if redis.call('ZSCORE', KEYS[4], ARGV[1]) or redis.call('ZSCORE', KEYS[5], ARGV[1]) then
  return {login, {}, 'blocked', private}
end
local requested = redis.call('ZREM', KEYS[6], ARGV[1]) == 1
local since = ARGV[5] ~= '' and ARGV[5] or ARGV[2]
local piece = piece_for(KEYS[2], since)
if not redis.call('ZSCORE', piece, ARGV[1]) then
  if ARGV[4] == '1' and not requested then
    return {login, {}, 'no_request', private}
  end
  if ARGV[4] ~= '1' and private == '1' then
    redis.call('ZADD', KEYS[6], ARGV[2], ARGV[1])
    return {login, {}, 'requested', private}
  end
end
if add_to_piece(KEYS[2], piece, ARGV[1], since, tonumber(ARGV[6])) == 1 then
  redis.call('HINCRBY', KEYS[1], 'followers', 1)
end
local entries = redis.call('ZREVRANGE', KEYS[3], 0, tonumber(ARGV[3]) - 1, 'WITHSCORES')
return {login, entries, 'followed', private}
