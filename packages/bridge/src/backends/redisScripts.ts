/**
 * Hands a frame to the other nodes subscribed to its topic and queues it when nobody received it, in one atomic
 * step: a node registers in the topic's set before it drains, so it either gets the frame on its node channel or
 * finds it in the queue. A node whose channel has no listener (crashed, or reconnecting) is removed from the set.
 *
 * KEYS: topic's node set, queue list, queue byte counter.
 * ARGV: this node's id, topic, frame, delivered here, frame bytes, max length, max bytes, TTL in ms,
 * now in ms, key TTL in ms, node channel prefix ('' = only queue). A channel message is `{topic bytes}:{topic}{frame}`.
 * Queue entries are `{expiresAt}:{frame}`. The queue keys outlive the newest entry by a grace period so expired
 * entries are still seen (and counted) by the next push or drain. Returns {queued, dropped, expired}.
 */
export const ENQUEUE_SCRIPT = `
local received = 0
local message
if ARGV[11] ~= '' then
  for _, node in ipairs(redis.call('SMEMBERS', KEYS[1])) do
    if node ~= ARGV[1] then
      message = message or (#ARGV[2] .. ':' .. ARGV[2] .. ARGV[3])
      local listeners = redis.call('PUBLISH', ARGV[11] .. node, message)
      if listeners == 0 then redis.call('SREM', KEYS[1], node) end
      received = received + listeners
    end
  end
end
if tonumber(ARGV[4]) > 0 or received > 0 then return {0, 0, 0} end
local bytes = tonumber(ARGV[5])
local maxLen = tonumber(ARGV[6])
local maxBytes = tonumber(ARGV[7])
local now = tonumber(ARGV[9])
if bytes > maxBytes then return {0, 1, 0} end
local len = redis.call('RPUSH', KEYS[2], string.format('%d', now + tonumber(ARGV[8])) .. ':' .. ARGV[3])
local total = redis.call('INCRBY', KEYS[3], bytes)
local dropped, expired = 0, 0
while len > 0 do
  local head = redis.call('LINDEX', KEYS[2], 0)
  local sep = string.find(head, ':', 1, true)
  local stale = tonumber(string.sub(head, 1, sep - 1)) <= now
  if not (stale or len > maxLen or total > maxBytes) then break end
  redis.call('LPOP', KEYS[2])
  total = redis.call('DECRBY', KEYS[3], #head - sep)
  len = len - 1
  if stale then expired = expired + 1 else dropped = dropped + 1 end
end
redis.call('PEXPIRE', KEYS[2], ARGV[10])
redis.call('PEXPIRE', KEYS[3], ARGV[10])
return {1, dropped, expired}
`

/** Reads and deletes a queue at once, so two nodes draining the same topic never both get a frame. KEYS: queue, bytes. */
export const DRAIN_SCRIPT = `
local items = redis.call('LRANGE', KEYS[1], 0, -1)
if #items > 0 then redis.call('DEL', KEYS[1], KEYS[2]) end
return items
`
