-- Renews one owner's open streams, in the owner's slot, and says which must end.
-- KEYS[1] the owner's user hash; then, for each of the owner's stream keys in use,
-- the key's hash and its open connections (id -> expiry time)
-- ARGV[1] the connections' new expiry time  ARGV[2] seconds a connection set outlives
-- its last renewal; then, for each stream key in KEYS' order, how many of its
-- connections follow, then their ids
-- Returns {1 if the owner is suspended else 0, then for each stream key 1 if it
-- still exists (0: revoked)}.
local renewed = {redis.call('HGET', KEYS[1], 'suspended') == '1' and 1 or 0}
local arg = 3
for i = 2, #KEYS, 2 do
  local count = tonumber(ARGV[arg])
  renewed[#renewed + 1] = redis.call('EXISTS', KEYS[i])
  for j = arg + 1, arg + count do
    redis.call('ZADD', KEYS[i + 1], 'XX', ARGV[1], ARGV[j])
  end
  redis.call('EXPIRE', KEYS[i + 1], ARGV[2])
  arg = arg + count + 1
end
return renewed
