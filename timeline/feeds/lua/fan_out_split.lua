-- Where the chunks of one big fan-out start, in the author's slot, so that several
-- workers can share it: from the cursor on, a cut about every ARGV[3] members, made
-- only where the score changes (a chunk ends just before the cut's score and the next
-- starts at it), so a run of members tied at one instant is never shared by two chunks.
-- KEYS[1] the author's followers (or listed-in set)
-- ARGV[1] cursor score  ARGV[2] members at that score already done  ARGV[3] chunk size
-- ARGV[4] most cuts to make
-- Returns {more, cut score...}: no cut if one chunk holds the rest; more is 1 if the
-- cuts ran out before the end (the last chunk is then split again).
local size, most = tonumber(ARGV[3]), tonumber(ARGV[4])
local card = redis.call('ZCARD', KEYS[1])
-- The rank of the first member still to reach, and of each chunk's first member.
local first = redis.call('ZCOUNT', KEYS[1], '-inf', '(' .. ARGV[1]) + tonumber(ARGV[2])
local cuts = {0}
local rank = first + size
while rank < card do
  if #cuts > most then
    cuts[1] = 1
    break
  end
  local score = redis.call('ZRANGE', KEYS[1], rank, rank, 'WITHSCORES')[2]
  local starts = redis.call('ZCOUNT', KEYS[1], '-inf', '(' .. score)
  if starts <= first then
    -- The chunk began inside a run of ties longer than a chunk: cut after the run.
    starts = redis.call('ZCOUNT', KEYS[1], '-inf', score)
    if starts >= card then
      break
    end
    score = redis.call('ZRANGE', KEYS[1], starts, starts, 'WITHSCORES')[2]
  end
  cuts[#cuts + 1] = score
  first = starts
  rank = starts + size
end
return cuts
