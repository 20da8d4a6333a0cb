-- Makes one user's liked marks (statuses.marks) match their likes page, the truth.
-- KEYS[1] likes:{uid} (status id -> time liked)  KEYS[2] liked:{uid} (the marks)
-- ARGV[1] '1' to fix what differs, '' to count it only
-- Returns {likes with no mark, marks with no like}.
local marked = {}
for _, id in ipairs(redis.call('SMEMBERS', KEYS[2])) do
  marked[id] = true
end
local missing = {}
for _, id in ipairs(redis.call('ZRANGE', KEYS[1], 0, -1)) do
  if marked[id] then
    marked[id] = nil
  else
    missing[#missing + 1] = id
  end
end
local extra = {}
for id in pairs(marked) do
  extra[#extra + 1] = id
end
if ARGV[1] == '1' then
  -- In commands of 1,000: Lua's unpack has a limit on how many values it returns.
  for first = 1, #missing, 1000 do
    redis.call('SADD', KEYS[2], unpack(missing, first, math.min(first + 999, #missing)))
  end
  for first = 1, #extra, 1000 do
    redis.call('SREM', KEYS[2], unpack(extra, first, math.min(first + 999, #extra)))
  end
end
return {#missing, #extra}
