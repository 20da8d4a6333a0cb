-- A run of a user's follows in follow order (following_read.lua), in their slot, merged
-- across the base and the buckets as one sorted set would give them: by follow time,
-- ties by uid as text (ZRANGE's order; reversed for the newest first).
-- KEYS[1] their following (the base)  ARGV[1] buckets  ARGV[2] 'newest' (newest first,
-- from rank ARGV[4]) or 'oldest' (oldest first, from the follow time ARGV[3], passing
-- over ARGV[4] at or after it)  ARGV[5] most to return
-- Returns {uid...} newest first, {uid, time...} oldest first (a cursor's read).
-- include: lib/following_read
local base, n = KEYS[1], tonumber(ARGV[1])
local newest, from = ARGV[2] == 'newest', ARGV[3]
local offset, count = tonumber(ARGV[4]), tonumber(ARGV[5])
local withscores = not newest
local function read(key, start, most, scores)
  if newest then
    if scores then
      return redis.call('ZREVRANGE', key, start, start + most - 1, 'WITHSCORES')
    end
    return redis.call('ZREVRANGE', key, start, start + most - 1)
  end
  if scores then
    return redis.call('ZRANGEBYSCORE', key, from, '+inf', 'WITHSCORES', 'LIMIT', start, most)
  end
  return redis.call('ZRANGEBYSCORE', key, from, '+inf', 'LIMIT', start, most)
end
local held = following_keys(base, n)
if count < 1 then
  return {}
end
if #held == 1 then
  return read(base, offset, count, withscores)
end
local total = 0
for _, key in ipairs(held) do
  total = total + redis.call('ZCARD', key)
end
if newest and (offset + count) * 4 >= total then
  -- Most of them: ZUNION merges in C (ties by uid as text, as ZRANGE orders them),
  -- cheaper than a merge in Lua of that many heads.
  local union = {'ZUNION', #held, unpack(held)}
  if withscores then
    union[#union + 1] = 'WITHSCORES'
  end
  local all = redis.call(unpack(union))
  local found = {}
  local step = withscores and 2 or 1
  local last = #all - offset * step
  for i = last - step + 1, math.max(1, last - count * step + 1), -step do
    found[#found + 1] = all[i]
    if withscores then
      found[#found + 1] = all[i + 1]
    end
  end
  return found
end
-- Each key's first offset + count, merged by taking the best head each time.
local runs, heads = {}, {}
for _, key in ipairs(held) do
  local got = read(key, 0, offset + count, true)
  if #got > 0 then
    runs[#runs + 1] = got
    heads[#heads + 1] = 1
  end
end
local function before(a, a_at, b, b_at)
  local a_score, b_score = tonumber(a[a_at + 1]), tonumber(b[b_at + 1])
  if a_score ~= b_score then
    return (a_score > b_score) == newest
  end
  return (a[a_at] > b[b_at]) == newest
end
local found, taken = {}, 0
while taken < offset + count do
  local best
  for r = 1, #runs do
    if heads[r] <= #runs[r] and (not best or before(runs[r], heads[r], runs[best], heads[best])) then
      best = r
    end
  end
  if not best then
    break
  end
  taken = taken + 1
  local run, at = runs[best], heads[best]
  if taken > offset then
    found[#found + 1] = run[at]
    if withscores then
      found[#found + 1] = run[at + 1]
    end
  end
  heads[best] = at + 2
end
return found
