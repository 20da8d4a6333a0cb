-- Followers in follow order from a cursor, across pieces (pieces.lua), in their slot:
-- what a fan-out job (and a post's first pass) walks.
-- KEYS[1] followers  ARGV[1] cursor: a follow time (or '-inf')  ARGV[2] followers at
-- that time already done  ARGV[3] end, as ZRANGEBYSCORE's max ('+inf' or '(<time>')
-- ARGV[4] most to return  ARGV[5] '1': each with its follow time
-- Returns {more, cursor time, cursor count, member (, time)...}: more is 1 if followers
-- are left after these, and the cursor (the last one's follow time, and how many up to
-- and including it share that time) is where the next read starts.
-- include: pieces
local base, n, withscores = KEYS[1], tonumber(ARGV[4]), ARGV[5] == '1'
local below = ARGV[3] == '+inf' and math.huge or tonumber(string.sub(ARGV[3], 2))
local key, start = piece_for(base, ARGV[1])
local starts = starts_after(base, start, n + 1)
local min, skip, found, i = ARGV[1], tonumber(ARGV[2]), {}, 0
while true do
  local got = redis.call(
    'ZRANGEBYSCORE', key, min, ARGV[3], 'WITHSCORES', 'LIMIT', skip, n + 1 - #found / 2
  )
  for _, value in ipairs(got) do
    found[#found + 1] = value
  end
  i = i + 1
  if #found / 2 > n or not starts[i] or tonumber(starts[i]) >= below then
    break
  end
  key, min, skip = piece_key(base, starts[i]), '-inf', 0
end
local count = math.min(n, #found / 2)
local reply = {0, '', 0}
if #found / 2 > n then
  local last, ties = found[2 * n], 0
  for j = 2, 2 * n, 2 do
    if found[j] == last then
      ties = ties + 1
    end
  end
  if ties == n and tonumber(last) == tonumber(ARGV[1]) then
    ties = ties + tonumber(ARGV[2])
  end
  reply = {1, last, ties}
end
for j = 1, count do
  reply[#reply + 1] = found[2 * j - 1]
  if withscores then
    reply[#reply + 1] = found[2 * j]
  end
end
return reply
