-- Where the followers after a cursor are, across pieces (pieces.lua), in their slot: the
-- reads that fetch them, not the followers themselves. A fan-out job's 10,000 uids cost
-- Redis several times more passed through a script (into a Lua table and out again)
-- than read by plain ZRANGEBYSCOREs, which the caller sends next (follow_sets.followers.walk).
-- KEYS[1] followers  ARGV[1] cursor: a follow time (or '-inf')  ARGV[2] followers at
-- that time already done  ARGV[3] end, as ZRANGEBYSCORE's max ('+inf' or '(<time>')
-- ARGV[4] most to read
-- Returns {more, cursor time, cursor count, key, min, offset, count, ...}: the cursor as
-- followers_range.lua returns it, then each read (ZRANGEBYSCORE key min end LIMIT offset
-- count), oldest first.
-- include: lib/pieces
local base, n = KEYS[1], tonumber(ARGV[4])
local below = ARGV[3] == '+inf' and math.huge or tonumber(string.sub(ARGV[3], 2))
local key, start = piece_for(base, ARGV[1])
local starts = starts_after(base, start, n + 1)
local min, skip, i, taken = ARGV[1], tonumber(ARGV[2]), 0, 0
-- The rank (in its piece) of the first member read from it.
local first = redis.call('ZCOUNT', key, '-inf', '(' .. ARGV[1]) + skip
local reads, last_key, last_rank = {}, nil, nil
while true do
  local count = math.min(redis.call('ZCOUNT', key, min, ARGV[3]) - skip, n + 1 - taken)
  if count > 0 then
    reads[#reads + 1] = {key, min, skip, count}
    if taken < n and taken + count >= n then
      last_key, last_rank = key, first + n - taken - 1
    end
    taken = taken + count
  end
  i = i + 1
  if taken > n or not starts[i] or tonumber(starts[i]) >= below then
    break
  end
  key, min, skip, first = piece_key(base, starts[i]), '-inf', 0, 0
end
local reply = {0, '', 0}
if taken > n then
  -- One more than asked was counted, to tell whether any are left: not read.
  local last = reads[#reads]
  last[4] = last[4] - 1
  if last[4] == 0 then
    reads[#reads] = nil
  end
  local score = redis.call('ZRANGE', last_key, last_rank, last_rank, 'WITHSCORES')[2]
  reply = {1, score, last_rank + 1 - redis.call('ZCOUNT', last_key, '-inf', '(' .. score)}
end
for _, read in ipairs(reads) do
  for _, value in ipairs(read) do
    reply[#reply + 1] = value
  end
end
return reply
