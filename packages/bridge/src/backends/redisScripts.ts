// Shared by both scripts. A queue entry is `{expiresAt}:{owner length}:{owner}{frame}`; `forget` takes an entry
// that left its queue off its owner's budget and the total. Owner keys (`ob:` bytes, `ot:` topics queued on, in
// order) are built from the prefix: one Redis, not a cluster.
const ENTRY_HELPERS = `
local prefix = ARGV[1]
local function parse(entry)
  local sep = string.find(entry, ':', 1, true)
  local sep2 = string.find(entry, ':', sep + 1, true)
  local len = tonumber(string.sub(entry, sep + 1, sep2 - 1))
  local owner = string.sub(entry, sep2 + 1, sep2 + len)
  return tonumber(string.sub(entry, 1, sep - 1)), owner, #entry - sep2 - len
end
local function forget(owner, bytes)
  local left = redis.call('DECRBY', prefix .. 'ob:' .. owner, bytes)
  if left <= 0 then
    redis.call('DEL', prefix .. 'ob:' .. owner, prefix .. 'ot:' .. owner)
    redis.call('ZREM', prefix .. 'owners', owner)
  else
    redis.call('ZADD', prefix .. 'owners', left, owner)
  end
  if redis.call('DECRBY', prefix .. 'total', bytes) < 0 then redis.call('SET', prefix .. 'total', 0) end
end
`

/**
 * Hands a frame to the other nodes subscribed to its topic and queues it when nobody received it, in one atomic
 * step: a node registers in the topic's set before it drains, so it either gets the frame on its node channel or
 * finds it in the queue. A node whose channel has no listener (crashed, or reconnecting) is removed from the set.
 * The frame is queued on its owner's budget (refused beyond it); over the total, the owner with the most queued
 * bytes loses its oldest entries first. An owner whose accounted bytes are no longer found (expired keys) is
 * reset, so the accounting heals itself.
 *
 * KEYS: topic's node set, queue list, queue byte counter.
 * ARGV: prefix, this node's id, topic, frame, delivered already, frame bytes, max length, max bytes, TTL in ms,
 * now in ms, key TTL in ms, node channel prefix ('' = only queue), owner, max bytes per owner, max total bytes,
 * nodes that have the frame already (`,id,id,`, or '').
 * A channel message is `{topic bytes}:{topic}{owner bytes}:{owner}{frame}`. Keys outlive the newest entry by a
 * grace period so expired entries are still seen (and counted) by the next push or drain.
 * Returns {queued, dropped, expired, refused by the owner's budget, ids of the nodes that received it (joined)}:
 * the publisher caches those and publishes the next frames of the topic to them directly.
 */
export const ENQUEUE_SCRIPT = `${ENTRY_HELPERS}
local node, topic, frame, owner = ARGV[2], ARGV[3], ARGV[4], ARGV[13]
local received = 0
local reached = ''
local message
if ARGV[12] ~= '' then
  local have = ARGV[16]
  for _, other in ipairs(redis.call('SMEMBERS', KEYS[1])) do
    if other ~= node and not string.find(have, ',' .. other .. ',', 1, true) then
      message = message or (#topic .. ':' .. topic .. #owner .. ':' .. owner .. frame)
      local listeners = redis.call('PUBLISH', ARGV[12] .. other, message)
      if listeners == 0 then redis.call('SREM', KEYS[1], other) else reached = reached .. other end
      received = received + listeners
    end
  end
end
if tonumber(ARGV[5]) > 0 or received > 0 then return {0, 0, 0, 0, reached} end
local bytes = tonumber(ARGV[6])
local maxLen = tonumber(ARGV[7])
local maxBytes = tonumber(ARGV[8])
local now = tonumber(ARGV[10])
local keyTtl = ARGV[11]
if bytes > maxBytes then return {0, 1, 0, 0, ''} end
local ownerBytes = prefix .. 'ob:' .. owner
if tonumber(redis.call('GET', ownerBytes) or '0') + bytes > tonumber(ARGV[14]) then return {0, 1, 0, 1, ''} end
local len = redis.call('RPUSH', KEYS[2], string.format('%d', now + tonumber(ARGV[9])) .. ':' .. #owner .. ':' .. owner .. frame)
local total = redis.call('INCRBY', KEYS[3], bytes)
redis.call('ZADD', prefix .. 'owners', redis.call('INCRBY', ownerBytes, bytes), owner)
redis.call('RPUSH', prefix .. 'ot:' .. owner, topic)
redis.call('PEXPIRE', ownerBytes, keyTtl)
redis.call('PEXPIRE', prefix .. 'ot:' .. owner, keyTtl)
local all = redis.call('INCRBY', prefix .. 'total', bytes)
local dropped, expired = 0, 0
while len > 0 do
  local head = redis.call('LINDEX', KEYS[2], 0)
  local expiresAt, headOwner, headBytes = parse(head)
  local stale = expiresAt <= now
  if not (stale or len > maxLen or total > maxBytes) then break end
  redis.call('LPOP', KEYS[2])
  total = redis.call('DECRBY', KEYS[3], headBytes)
  forget(headOwner, headBytes)
  all = all - headBytes
  len = len - 1
  if stale then expired = expired + 1 else dropped = dropped + 1 end
end
redis.call('PEXPIRE', KEYS[2], keyTtl)
redis.call('PEXPIRE', KEYS[3], keyTtl)
local maxTotal = tonumber(ARGV[15])
local steps = 0
while all > maxTotal and steps < 1000 do
  steps = steps + 1
  local top = redis.call('ZREVRANGE', prefix .. 'owners', 0, 0, 'WITHSCORES')
  if #top == 0 then break end
  local largest, score = top[1], tonumber(top[2])
  local queued = redis.call('LPOP', prefix .. 'ot:' .. largest)
  if not queued then
    -- Its entries expired with their keys: what it was charged is gone already.
    redis.call('ZREM', prefix .. 'owners', largest)
    redis.call('DEL', prefix .. 'ob:' .. largest)
    all = redis.call('DECRBY', prefix .. 'total', score)
  else
    local queueKey, bytesKey = prefix .. 'q:' .. queued, prefix .. 'qb:' .. queued
    for _, entry in ipairs(redis.call('LRANGE', queueKey, 0, -1)) do
      local _, entryOwner, entryBytes = parse(entry)
      if entryOwner == largest then
        redis.call('LREM', queueKey, 1, entry)
        if redis.call('DECRBY', bytesKey, entryBytes) <= 0 then redis.call('DEL', queueKey, bytesKey) end
        forget(largest, entryBytes)
        all = all - entryBytes
        dropped = dropped + 1
        break
      end
    end
  end
end
return {1, dropped, expired, 0, ''}
`

/**
 * Reads and deletes a queue at once, so two nodes draining the same topic never both get a frame, and takes every
 * entry off its owner's budget. KEYS: queue, bytes. ARGV: prefix. Returns `{expiresAt}:{frame}` entries.
 */
export const DRAIN_SCRIPT = `${ENTRY_HELPERS}
local items = redis.call('LRANGE', KEYS[1], 0, -1)
if #items > 0 then redis.call('DEL', KEYS[1], KEYS[2]) end
local frames = {}
for i, entry in ipairs(items) do
  local expiresAt, owner, bytes = parse(entry)
  forget(owner, bytes)
  frames[i] = string.format('%d', expiresAt) .. ':' .. string.sub(entry, #entry - bytes + 1)
end
return frames
`
