-- One rate limit's state for one subject (an IP, an account, a login), by GCRA
-- (the generic cell rate algorithm): the key holds the "theoretical arrival time",
-- in milliseconds, when the subject's allowance is whole again. `count` actions fit
-- in any `period`, as a burst or spread out, and one more each period/count after.
--
-- KEYS[1] the limit's key for this subject
-- ARGV[1] period (ms), ARGV[2] count, ARGV[3] 1 to record the action, 0 to only ask
-- Returns 0 if the action is allowed (and recorded, if asked), else the milliseconds
-- until it will be.
local period = tonumber(ARGV[1])
local interval = period / tonumber(ARGV[2])
local time = redis.call('TIME')
local now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
local tat = tonumber(redis.call('GET', KEYS[1]) or 0)
if tat < now then
  tat = now
end
local next_tat = tat + interval
local allowed_at = next_tat - period
if allowed_at > now then
  return math.ceil(allowed_at - now)
end
if ARGV[3] == '1' then
  redis.call('SET', KEYS[1], math.ceil(next_tat), 'PX', math.ceil(next_tat - now))
end
return 0
