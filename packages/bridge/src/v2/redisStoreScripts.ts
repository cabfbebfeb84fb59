// Lua of the v2 Redis store (docs/relay-v2.md, "Redis"). Keys are built from the prefix: one Redis, not a cluster.
//
// An entry (member of `t:{topic}`, scored by a global sequence, and the text sent on a node channel):
//   `{expiresAt} {id} {from} {owner} {bytes}\n{data}`, data being the push's JSON `{topic, message, publishedAt, tag,
//   attestation?}`. The ledger `x` (scored by expiresAt) holds `{seq} {bytes} {owner} {id} {topic}` for every kept
//   message: a message counts in `total`, `owners` and `tb:{topic}` exactly while it is in `x`, so the accounting
//   heals when `t:{topic}` expires before the sweep reaches it.
const HELPERS = `
local prefix = ARGV[1]
local xKey, ownersKey, totalKey = prefix .. 'x', prefix .. 'owners', prefix .. 'total'
local function unaccount(owner, bytes, id)
  if redis.call('HINCRBY', ownersKey, owner, -bytes) <= 0 then redis.call('HDEL', ownersKey, owner) end
  if redis.call('DECRBY', totalKey, bytes) < 0 then redis.call('SET', totalKey, 0) end
  redis.call('DEL', prefix .. 'a:' .. id)
end
local function sweep(now, limit)
  local items = redis.call('ZRANGEBYSCORE', xKey, '-inf', now, 'LIMIT', 0, limit)
  for _, item in ipairs(items) do
    local seq, bytes, owner, id, topic = string.match(item, '^(%d+) (%d+) (%S+) (%S+) (.*)$')
    bytes = tonumber(bytes)
    if redis.call('ZREMRANGEBYSCORE', prefix .. 't:' .. topic, seq, seq) > 0 then
      if redis.call('DECRBY', prefix .. 'tb:' .. topic, bytes) <= 0 then redis.call('DEL', prefix .. 'tb:' .. topic) end
    end
    redis.call('ZREM', xKey, item)
    unaccount(owner, bytes, id)
  end
  return #items
end
local function keep(key, ms)
  local ttl = redis.call('PTTL', key)
  if ttl < ms then redis.call('PEXPIRE', key, ms) end
end
`

/**
 * Keeps a message and hands it to the other nodes registered for its topic, in one atomic step: a node registers in
 * `s:{topic}` before it reads the topic's entries, so it either gets the entry on its channel or finds it there.
 * A node whose channel has no listener (dead, or reconnecting) is removed from the set; it reads the mailbox when it
 * registers again. Refusals: 1 larger than the topic cap, 2 over the owner's budget, 3 over the total; the last two
 * first sweep one slice of expired messages, so expired keys never hold a budget. The per-topic caps drop the topic's
 * oldest entries; nobody else's message is ever evicted.
 *
 * KEYS: t:{topic}, tb:{topic}, s:{topic}.
 * ARGV: prefix, node id, node channel prefix, topic, id, owner, bytes, expiresAt, now, entry, max messages per topic,
 * max bytes per topic, max bytes per owner, max total bytes, sweep slice.
 * Returns {refusal (0 = kept), dropped, expired, messages kept, bytes kept}.
 */
export const ADD_SCRIPT = `${HELPERS}
local topic, id, owner = ARGV[4], ARGV[5], ARGV[6]
local bytes, expiresAt, now = tonumber(ARGV[7]), tonumber(ARGV[8]), tonumber(ARGV[9])
local entry = ARGV[10]
local maxMessages, maxTopic, maxOwner, maxTotal = tonumber(ARGV[11]), tonumber(ARGV[12]), tonumber(ARGV[13]), tonumber(ARGV[14])
local limit = tonumber(ARGV[15])
local expired, dropped = 0, 0
local function status(code)
  return {code, dropped, expired, redis.call('ZCARD', xKey), tonumber(redis.call('GET', totalKey) or '0')}
end
if bytes > maxTopic then return status(1) end
local function ownerBytes() return tonumber(redis.call('HGET', ownersKey, owner) or '0') end
if ownerBytes() + bytes > maxOwner then
  expired = expired + sweep(now, limit)
  if ownerBytes() + bytes > maxOwner then return status(2) end
end
local count = redis.call('ZCARD', KEYS[1])
local topicBytes = 0
if count > 0 then topicBytes = tonumber(redis.call('GET', KEYS[2]) or '0') end
while count > 0 and (count >= maxMessages or topicBytes + bytes > maxTopic) do
  local head = redis.call('ZPOPMIN', KEYS[1])
  local oldExpires, oldId, _, oldOwner, oldBytes = string.match(head[1], '^(%d+) (%S+) (%S+) (%S+) (%d+)\\n')
  oldBytes = tonumber(oldBytes)
  redis.call('ZREM', xKey, string.format('%d', tonumber(head[2])) .. ' ' .. oldBytes .. ' ' .. oldOwner .. ' ' .. oldId .. ' ' .. topic)
  unaccount(oldOwner, oldBytes, oldId)
  topicBytes = topicBytes - oldBytes
  count = count - 1
  if tonumber(oldExpires) > now then dropped = dropped + 1 else expired = expired + 1 end
end
-- Written back before a sweep below may take more of this topic's entries (and their bytes) away.
if count == 0 then redis.call('DEL', KEYS[2]) else redis.call('SET', KEYS[2], topicBytes, 'KEEPTTL') end
local function total() return tonumber(redis.call('GET', totalKey) or '0') end
if total() + bytes > maxTotal then
  expired = expired + sweep(now, limit)
  if total() + bytes > maxTotal then return status(3) end
end
local seq = string.format('%d', redis.call('INCR', prefix .. 'seq'))
redis.call('ZADD', KEYS[1], seq, entry)
redis.call('INCRBY', KEYS[2], bytes)
redis.call('HINCRBY', ownersKey, owner, bytes)
redis.call('INCRBY', totalKey, bytes)
redis.call('ZADD', xKey, expiresAt, seq .. ' ' .. bytes .. ' ' .. owner .. ' ' .. id .. ' ' .. topic)
keep(KEYS[1], expiresAt - now)
keep(KEYS[2], expiresAt - now)
for _, node in ipairs(redis.call('SMEMBERS', KEYS[3])) do
  if node ~= ARGV[2] then
    if redis.call('PUBLISH', ARGV[3] .. node, entry) == 0 then redis.call('SREM', KEYS[3], node) end
  end
end
return status(0)
`

/**
 * The entries of a topic a client should be pushed, oldest first: unexpired, not its own, not acknowledged by it.
 * KEYS: t:{topic}. ARGV: prefix, client id, now.
 */
export const PENDING_SCRIPT = `${HELPERS}
local client, now = ARGV[2], tonumber(ARGV[3])
local out = {}
for _, entry in ipairs(redis.call('ZRANGE', KEYS[1], 0, -1)) do
  local expiresAt, id, from = string.match(entry, '^(%d+) (%S+) (%S+) ')
  if tonumber(expiresAt) > now and from ~= client and redis.call('SISMEMBER', prefix .. 'a:' .. id, client) == 0 then
    out[#out + 1] = entry
  end
end
return out
`

/**
 * Records acks, a batch at a time (the acks of one turn of the node's event loop): each client id into `a:{id}`,
 * which expires with its message. ARGV: prefix, then per ack the message id, the client id and the message's
 * remaining ms.
 */
export const ACK_SCRIPT = `
local prefix = ARGV[1]
for i = 2, #ARGV, 3 do
  local key = prefix .. 'a:' .. ARGV[i]
  redis.call('SADD', key, ARGV[i + 1])
  redis.call('PEXPIRE', key, ARGV[i + 2])
end
return 0
`

/**
 * One slice of the expiry sweep: takes up to `limit` expired messages off the ledger, their topic and the budgets.
 * KEYS: none. ARGV: prefix, now, limit. Returns {expired, messages kept, bytes kept}.
 */
export const SWEEP_SCRIPT = `${HELPERS}
local swept = sweep(tonumber(ARGV[2]), tonumber(ARGV[3]))
return {swept, redis.call('ZCARD', xKey), tonumber(redis.call('GET', totalKey) or '0')}
`
