-- Which of a few users follow one, asked of their followers (pieces.lua) in their slot,
-- or all of those followers (for many asked: the caller looks each up among them; a
-- ZMSCORE walks a listpack once a member asked, and every piece is one). A profile's
-- followers in common, a reply's audience. Past a few pieces nothing is read (a script
-- that long would hold Redis up): the caller asks each one's following set.
-- KEYS[1] followers  ARGV[1] most pieces to read  ARGV[2] the pieces' size
-- ARGV[3...] the uids asked (none: every follower is returned)
-- Returns a 1 or 0 each asked (follows or not), or every follower's uid if none was
-- asked; false if the followers are in more than ARGV[1] pieces, or in one key past a
-- piece's size (a set kept so before pieces).
-- include: lib/pieces
local base, most = KEYS[1], tonumber(ARGV[1])
local starts = redis.call('ZRANGE', piece_index(base), 0, most)
if #starts > most or redis.call('ZCARD', base) > tonumber(ARGV[2]) then
  return false
end
local pieces = {base}
for _, start in ipairs(starts) do
  pieces[#pieces + 1] = piece_key(base, start)
end
local reply = {}
if #ARGV < 3 then
  for _, key in ipairs(pieces) do
    for _, uid in ipairs(redis.call('ZRANGE', key, 0, -1)) do
      reply[#reply + 1] = uid
    end
  end
  return reply
end
local asked = {unpack(ARGV, 3)}
local follows = {}
for _, key in ipairs(pieces) do
  for i, score in ipairs(redis.call('ZMSCORE', key, unpack(asked))) do
    if score then
      follows[i] = true
    end
  end
end
for i = 1, #asked do
  reply[i] = follows[i] and 1 or 0
end
return reply
