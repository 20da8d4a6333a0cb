-- Moves scheduled jobs that are due onto the job stream, in the {jobs} slot, so a job
-- is either still scheduled or queued, never lost nor queued twice.
-- KEYS[1] the scheduled jobs (sorted set: member a JSON pair, the job's kind and its
--         arguments' JSON text, so they go on as written; score when it is due)
-- KEYS[2] the job stream
-- ARGV[1] now (Unix seconds)  ARGV[2] at most this many
-- Returns how many were moved.
local due = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', ARGV[1], 'LIMIT', 0, tonumber(ARGV[2]))
for _, job in ipairs(due) do
  local decoded = cjson.decode(job)
  redis.call('XADD', KEYS[2], '*', 'kind', decoded[1], 'args', decoded[2])
  redis.call('ZREM', KEYS[1], job)
end
return #due
