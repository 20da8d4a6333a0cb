-- Followers in follow order from a cursor, across pieces (pieces.lua), in their slot:
-- what a fan-out job (and a post's first pass) walks.
-- KEYS[1] followers  ARGV[1] cursor: a follow time (or '-inf')  ARGV[2] followers at
-- that time already done  ARGV[3] end, as ZRANGEBYSCORE's max ('+inf' or '(<time>')
-- ARGV[4] most to return  ARGV[5] '1': each with its follow time
-- Returns {more, cursor time, cursor count, member (, time)...}: more is 1 if followers
-- are left after these, and the cursor (the last one's follow time, and how many up to
-- and including it share that time) is where the next read starts. Members are read
-- without their times unless asked (a Lua table of 10,000 pairs costs more than the
-- reply): the cursor comes from the last one's rank instead.
-- include: lib/pieces
local base, n = KEYS[1], tonumber(ARGV[4])
local below = ARGV[3] == '+inf' and math.huge or tonumber(string.sub(ARGV[3], 2))
local withscores = ARGV[5] == '1'
local step = withscores and 2 or 1
local key, start = piece_for(base, ARGV[1])
local starts = starts_after(base, start, n + 1)
local min, skip, found, i = ARGV[1], tonumber(ARGV[2]), {}, 0
-- The rank (in its piece) of the first member read from it.
local first = redis.call('ZCOUNT', key, '-inf', '(' .. ARGV[1]) + skip
local last_key, last_rank
while true do
  local wanted = n + 1 - #found / step
  local got
  if withscores then
    got = redis.call('ZRANGEBYSCORE', key, min, ARGV[3], 'WITHSCORES', 'LIMIT', skip, wanted)
  else
    got = redis.call('ZRANGEBYSCORE', key, min, ARGV[3], 'LIMIT', skip, wanted)
  end
  for j, value in ipairs(got) do
    found[#found + 1] = value
    if #found == n * step then
      last_key, last_rank = key, first + (j - 1 - (step - 1)) / step
    end
  end
  i = i + 1
  if #found / step > n or not starts[i] or tonumber(starts[i]) >= below then
    break
  end
  key, min, skip, first = piece_key(base, starts[i]), '-inf', 0, 0
end
local reply = {0, '', 0}
if #found / step > n then
  local last = found[(n - 1) * step + 1]
  local score = redis.call('ZSCORE', last_key, last)
  reply = {1, score, last_rank + 1 - redis.call('ZCOUNT', last_key, '-inf', '(' .. score)}
end
for j = 1, math.min(n * step, #found) do
  reply[#reply + 1] = found[j]
end
return reply
