-- Attaches a post's uploads to its status (or a direct message), all or none (the
-- uploader's slot).
-- KEYS the attachments' hashes, in the post's order  ARGV[1] the owner: a status id, or a
-- direct message's name
-- Returns {0, ""} attached; {i, why} for the first that can't be: "gone" (none such, or
-- someone else's), "failed" (its conversion failed), "attached" (to another status).
for i, key in ipairs(KEYS) do
  local found = redis.call('HMGET', key, 'k', 's', 'a')
  if not found[1] then
    return {i, 'gone'}
  end
  if found[2] == 'failed' then
    return {i, 'failed'}
  end
  if found[3] and found[3] ~= ARGV[1] then
    return {i, 'attached'}
  end
end
for _, key in ipairs(KEYS) do
  redis.call('HSET', key, 'a', ARGV[1])
end
return {0, ''}
