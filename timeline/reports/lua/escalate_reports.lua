-- Moves reports on groups' posts from their group's queue to the site's, in the reports'
-- slot ({queue}). A report closed meanwhile, or moved already, is only forgotten from
-- the escalation times: idempotent.
-- KEYS[1] the site's open reports  KEYS[2] the group reports' escalation times
-- KEYS[3..2+n] each report's hash  KEYS[3+n..2+2n] each report's group queue
-- ARGV[1] now  ARGV[2..1+n] the reports' ids
-- Returns how many reports it moved.
local moved = 0
local n = #ARGV - 1
for i = 1, n do
  local report_id, report_key, group_queue_key = ARGV[1 + i], KEYS[2 + i], KEYS[2 + n + i]
  redis.call('ZREM', KEYS[2], report_id)
  local filed = redis.call('ZSCORE', group_queue_key, report_id)
  if filed and redis.call('HGET', report_key, 'state') == 'open' then
    redis.call('ZREM', group_queue_key, report_id)
    redis.call('ZADD', KEYS[1], filed, report_id)
    redis.call('HSET', report_key, 'escalated', ARGV[1])
    moved = moved + 1
  end
end
return moved
