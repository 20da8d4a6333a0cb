-- Which of some users follow one, asked of their followers (pieces.lua) in their slot:
-- a profile's followers in common, a reply's audience. ZMSCORE walks a listpack once a
-- member asked (every piece is one), so past a few members asked the followers are read
-- once into a table instead; past a few pieces nothing is read (a script that long
-- would hold Redis up), and the caller asks each one's following set.
-- KEYS[1] followers  ARGV[1] most pieces to read  ARGV[2] the pieces' size
-- ARGV[3] most members asked by ZMSCORE  ARGV[4...] the uids asked
-- Returns a 1 or 0 each (follows or not), or false if the followers are in more than
-- ARGV[1] pieces, or in one key past a piece's size (a set kept so before pieces).
-- include: pieces
local base, most, by_zmscore, first = KEYS[1], tonumber(ARGV[1]), tonumber(ARGV[3]), 4
if #ARGV < first then
  return {}
end
local starts = redis.call('ZRANGE', piece_index(base), 0, most)
if #starts > most or redis.call('ZCARD', base) > tonumber(ARGV[2]) then
  return false
end
local pieces = {base}
for _, start in ipairs(starts) do
  pieces[#pieces + 1] = piece_key(base, start)
end
local follows = {}
if #ARGV - first + 1 <= by_zmscore then
  local asked = {unpack(ARGV, first)}
  for _, key in ipairs(pieces) do
    for i, score in ipairs(redis.call('ZMSCORE', key, unpack(asked))) do
      if score then
        follows[asked[i]] = true
      end
    end
  end
else
  for _, key in ipairs(pieces) do
    for _, uid in ipairs(redis.call('ZRANGE', key, 0, -1)) do
      follows[uid] = true
    end
  end
end
local reply = {}
for i = first, #ARGV do
  reply[#reply + 1] = follows[ARGV[i]] and 1 or 0
end
return reply
