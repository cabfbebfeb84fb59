// Lua of the v2 Redis store (docs/relay-v2.md, "Redis"). Keys are built from the prefix: one Redis, not a cluster.
// Each node builds its scripts once, with its prefix, node id and limits written into the text, so a call carries
// only what changes (an add: the time, then the topic and the entry of each message).
//
// An entry (member of `t:{topic}`, scored by a global sequence `seq`):
//   `{expiresAt} {id} {from} {owner} {bytes}\n{data}`, data being the push's JSON `{topic, message, publishedAt, tag,
//   attestation?}`; what pending returns and a node channel carries is `{seq} {entry}`, so that an ack can name the
//   message. The ledger `x` (scored by expiresAt) holds `{seq} {bytes} {owner} {id} {topic}` for every kept message: a
//   message counts in `total` and `tb:{topic}` exactly while it is in `x`, and in `owed`, `owners` and `networks`
//   while it is in `x` and not in `d` (delivered: first acked, scored by the order of first acks), so the accounting
//   heals when `t:{topic}` expires before the sweep reaches it.

import { ADDRESS_SHARE_DIVISOR, MAX_ACKS_PER_MESSAGE, NETWORK_SHARE_DIVISOR } from './store.js'

/** What a node writes into its scripts. */
export type RelayScriptsParameters = {
  prefix: string
  nodeId: string
  channelPrefix: string
  maxMessagesPerTopic: number
  maxBytesPerTopic: number
  maxBytesPerAddress: number
  maxBytesPerNetwork: number
  addressShareDivisor?: number | undefined
  networkShareDivisor?: number | undefined
  maxTotalBytes: number
  sweepSlice: number
}

// A Lua string literal of any text: quotes, backslashes and ASCII control characters as decimal escapes, the rest as
// its UTF-8 bytes (Lua strings are 8-bit clean).
const lua = (text: string) =>
  `"${text.replace(/[\p{Cc}"\\]/gu, (c) => (c.charCodeAt(0) < 128 ? `\\${String(c.charCodeAt(0)).padStart(3, '0')}` : c))}"`
// A Lua number literal (limits are integers; Infinity and huge values stay exact enough as floats).
const num = (value: number) => (Number.isFinite(value) ? String(value) : 'math.huge')

const helpers = (prefix: string) => `
local prefix = ${lua(prefix)}
local xKey, dKey, totalKey, owedKey = prefix .. 'x', prefix .. 'd', prefix .. 'total', prefix .. 'owed'
local ownersKey, networksKey = prefix .. 'owners', prefix .. 'networks'
local function total() return tonumber(redis.call('GET', totalKey) or '0') end
-- networkKey of addressKey.ts, from an address key: IPv4 by its /24, IPv6 (written as w:x:y:z::/64) by its /48.
local function network(owner)
  local ipv4 = string.match(owner, '^(%d+%.%d+%.%d+)%.%d+$')
  if ipv4 then return ipv4 .. '.0/24' end
  local ipv6 = string.match(owner, '^(%x+:%x+:%x+):%x+::/64$')
  if ipv6 then return ipv6 .. '::/48' end
  return owner
end
-- An owed message is delivered or gone: its bytes leave its owner's and network's budgets.
local function settle(owner, bytes)
  if redis.call('HINCRBY', ownersKey, owner, -bytes) <= 0 then redis.call('HDEL', ownersKey, owner) end
  local net = network(owner)
  if redis.call('HINCRBY', networksKey, net, -bytes) <= 0 then redis.call('HDEL', networksKey, net) end
  if redis.call('DECRBY', owedKey, bytes) < 0 then redis.call('SET', owedKey, 0) end
end
-- A message leaves the ledger (its topic's entry is gone already): every budget it counts in.
local function unaccount(item, owner, bytes, id)
  redis.call('ZREM', xKey, item)
  if redis.call('ZREM', dKey, item) == 0 then settle(owner, bytes) end
  if redis.call('DECRBY', totalKey, bytes) < 0 then redis.call('SET', totalKey, 0) end
  redis.call('DEL', prefix .. 'a:' .. id)
end
-- Takes a ledger item's entry off its topic and the item off the ledger.
local function remove(item)
  local seq, bytes, owner, id, topic = string.match(item, '^(%d+) (%d+) (%S+) (%S+) (.*)$')
  bytes = tonumber(bytes)
  if redis.call('ZREMRANGEBYSCORE', prefix .. 't:' .. topic, seq, seq) > 0 then
    if redis.call('DECRBY', prefix .. 'tb:' .. topic, bytes) <= 0 then redis.call('DEL', prefix .. 'tb:' .. topic) end
  end
  unaccount(item, owner, bytes, id)
end
local function sweep(now, limit)
  local items = redis.call('ZRANGEBYSCORE', xKey, '-inf', now, 'LIMIT', 0, limit)
  for _, item in ipairs(items) do remove(item) end
  return #items
end
`

/**
 * The scripts of one node. Each returns Lua; `nodeScripts` builds them all once per store start.
 *
 * - **add** keeps a message and hands it to the other nodes registered for its topic, in one atomic step: a node
 *   registers in `s:{topic}` before it reads the topic's entries, so it either gets the entry on its channel or finds
 *   it there. A node whose channel has no listener (dead, or reconnecting) is removed from the set; it reads the
 *   mailbox when it registers again. Refusals: 1 larger than the topic cap, 2 over the owner's share, 4 over the
 *   network's share (both of what owed messages leave free, as the memory store computes them), 3 over the total
 *   when evicting every delivered message would not make room; a share or total refusal first sweeps one slice of
 *   expired messages, so expired keys never hold a budget. Over the total, delivered messages are evicted oldest
 *   delivered first (counted as dropped); the per-topic caps drop the topic's oldest entries; an owed message is
 *   never evicted. One call keeps the messages of one turn of the node's event loop, in order. ARGV: now, publishing,
 *   then per message its topic and entry (its id, owner, bytes and expiry are read from its first line). With
 *   publishing `1` it publishes each kept message on the channel of every other node registered for its topic; with
 *   `0` (the node sends them over the node links itself) it only names them. Returns each message's seq when kept or
 *   its refusal negated, then the dropped, the expired, the messages kept and the bytes kept, then per message the
 *   other nodes registered for its topic (space-separated; nil when refused), which tells the node whether it may hold
 *   the topic's next messages back (`writeDelayMs`).
 * - **pending**: per read, `{seq} {entry}` of each entry of a topic a client should be pushed, oldest first: unexpired,
 *   not its own, not acknowledged by it. The reads of one turn of the node's event loop at a time. ARGV: per read the
 *   topic, the client id and now. Returns one list per read.
 * - **watch** registers the node in `s:{topic}` of each topic, the watches of one turn at a time (each set then
 *   expires after the ttl unless registered again), and with announce `1` publishes `{node} {topic}` on the
 *   `interest` channel for each (nodes holding messages of the topic back write them then). ARGV: the ttl (ms),
 *   announce, then the topics.
 * - **ack** records acks, a batch at a time (the acks of one turn of the node's event loop), of messages still kept:
 *   each client id into `a:{id}` (up to MAX_ACKS_PER_MESSAGE of them), which expires with its message; a message's first ack moves it into `d` and its
 *   bytes off `owed`, `owners` and `networks`. ARGV: per ack the message id, the client id, the message's remaining
 *   ms and its ledger item.
 * - **sweep**: one slice of the expiry sweep: takes expired messages off the ledger, their topic and the budgets.
 *   ARGV: now. Returns {expired, messages kept, bytes kept}.
 */
export function nodeScripts(parameters: RelayScriptsParameters) {
  const HELPERS = helpers(parameters.prefix)
  const add = `${HELPERS}
local maxMessages, maxTopic = ${num(parameters.maxMessagesPerTopic)}, ${num(parameters.maxBytesPerTopic)}
local maxOwner, maxNetwork = ${num(parameters.maxBytesPerAddress)}, ${num(parameters.maxBytesPerNetwork)}
local maxTotal = ${num(parameters.maxTotalBytes)}
local now, publishing = tonumber(ARGV[1]), ARGV[2] == '1'
local expired, dropped = 0, 0
-- Fair shares of what owed messages leave free: the memory store's arithmetic (doubles, the same divisors).
local function share(owner, net, bytes)
  local free = maxTotal - tonumber(redis.call('GET', owedKey) or '0')
  local owed = tonumber(redis.call('HGET', ownersKey, owner) or '0')
  if owed + bytes > math.min(maxOwner, free / ${num(parameters.addressShareDivisor ?? ADDRESS_SHARE_DIVISOR)}) then return 2 end
  owed = tonumber(redis.call('HGET', networksKey, net) or '0')
  if owed + bytes > math.min(maxNetwork, free / ${num(parameters.networkShareDivisor ?? NETWORK_SHARE_DIVISOR)}) then return 4 end
  return 0
end
-- Evicts delivered messages, oldest delivered first, until bytes more fit in the total.
local function makeRoom(bytes)
  while total() + bytes > maxTotal do
    local head = redis.call('ZRANGE', dKey, 0, 0)
    if #head == 0 then return end
    remove(head[1])
    dropped = dropped + 1
  end
end
local function add(topic, entry)
  local expiresAt, id, owner, bytes = string.match(entry, '^(%d+) (%S+) %S+ (%S+) (%d+)\\n')
  expiresAt, bytes = tonumber(expiresAt), tonumber(bytes)
  local tKey, tbKey, sKey = prefix .. 't:' .. topic, prefix .. 'tb:' .. topic, prefix .. 's:' .. topic
  if bytes > maxTopic then return -1 end
  local net = network(owner)
  if share(owner, net, bytes) > 0 then
    expired = expired + sweep(now, ${parameters.sweepSlice})
    local refused = share(owner, net, bytes)
    if refused > 0 then return -refused end
  end
  local count = redis.call('ZCARD', tKey)
  local topicBytes = 0
  if count > 0 then topicBytes = tonumber(redis.call('GET', tbKey) or '0') end
  local popped = count == 0
  while count > 0 and (count >= maxMessages or topicBytes + bytes > maxTopic) do
    local head = redis.call('ZPOPMIN', tKey)
    local oldExpires, oldId, _, oldOwner, oldBytes = string.match(head[1], '^(%d+) (%S+) (%S+) (%S+) (%d+)\\n')
    oldBytes = tonumber(oldBytes)
    local item = string.format('%d', tonumber(head[2])) .. ' ' .. oldBytes .. ' ' .. oldOwner .. ' ' .. oldId .. ' ' .. topic
    unaccount(item, oldOwner, oldBytes, oldId)
    topicBytes = topicBytes - oldBytes
    count = count - 1
    popped = true
    if tonumber(oldExpires) > now then dropped = dropped + 1 else expired = expired + 1 end
  end
  -- Written back before a sweep below may take more of this topic's entries (and their bytes) away.
  if popped then
    if count == 0 then redis.call('DEL', tbKey) else redis.call('SET', tbKey, topicBytes, 'KEEPTTL') end
  end
  if total() + bytes > maxTotal then
    expired = expired + sweep(now, ${parameters.sweepSlice})
    makeRoom(bytes)
    if total() + bytes > maxTotal then return -3 end
  end
  local seq = string.format('%d', redis.call('INCR', prefix .. 'seq'))
  redis.call('ZADD', tKey, seq, entry)
  redis.call('INCRBY', tbKey, bytes)
  redis.call('HINCRBY', ownersKey, owner, bytes)
  redis.call('HINCRBY', networksKey, net, bytes)
  redis.call('INCRBY', owedKey, bytes)
  redis.call('INCRBY', totalKey, bytes)
  redis.call('ZADD', xKey, expiresAt, seq .. ' ' .. bytes .. ' ' .. owner .. ' ' .. id .. ' ' .. topic)
  -- The topic's two keys expire together, up to an eighth of its last message's ttl after it, so that a busy topic's
  -- adds seldom extend them.
  local ms = expiresAt - now
  if redis.call('PTTL', tKey) < ms then
    ms = ms + math.floor(ms / 8)
    redis.call('PEXPIRE', tKey, ms)
    redis.call('PEXPIRE', tbKey, ms)
  end
  local members = redis.call('SMEMBERS', sKey)
  local others = {}
  if #members > 1 or (#members == 1 and members[1] ~= ${lua(parameters.nodeId)}) then
    local text = seq .. ' ' .. entry
    for _, node in ipairs(members) do
      if node ~= ${lua(parameters.nodeId)} then
        if publishing and redis.call('PUBLISH', ${lua(parameters.channelPrefix)} .. node, text) == 0 then
          redis.call('SREM', sKey, node)
        else others[#others + 1] = node end
      end
    end
  end
  return tonumber(seq), table.concat(others, ' ')
end
local out, nodes = {}, {}
for i = 3, #ARGV, 2 do
  local seq, others = add(ARGV[i], ARGV[i + 1])
  out[#out + 1] = seq
  nodes[#nodes + 1] = others or false
end
out[#out + 1] = dropped
out[#out + 1] = expired
out[#out + 1] = redis.call('ZCARD', xKey)
out[#out + 1] = total()
for _, others in ipairs(nodes) do out[#out + 1] = others end
return out
`
  const pending = `${HELPERS}
local out = {}
for r = 1, #ARGV, 3 do
  local client, now, list = ARGV[r + 1], tonumber(ARGV[r + 2]), {}
  local entries = redis.call('ZRANGE', prefix .. 't:' .. ARGV[r], 0, -1, 'WITHSCORES')
  for i = 1, #entries, 2 do
    local entry = entries[i]
    local expiresAt, id, from = string.match(entry, '^(%d+) (%S+) (%S+) ')
    if tonumber(expiresAt) > now and from ~= client and redis.call('SISMEMBER', prefix .. 'a:' .. id, client) == 0 then
      list[#list + 1] = string.format('%d', tonumber(entries[i + 1])) .. ' ' .. entry
    end
  end
  out[#out + 1] = list
end
return out
`
  const watch = `local prefix, ttl, announce = ${lua(parameters.prefix)}, ARGV[1], ARGV[2] == '1'
for i = 3, #ARGV do
  local key = prefix .. 's:' .. ARGV[i]
  redis.call('SADD', key, ${lua(parameters.nodeId)})
  redis.call('PEXPIRE', key, ttl)
  if announce then redis.call('PUBLISH', prefix .. 'interest', ${lua(parameters.nodeId)} .. ' ' .. ARGV[i]) end
end
return 0
`
  const ack = `${HELPERS}
for i = 1, #ARGV, 5 do
  local item = ARGV[i + 3]
  -- A message gone (dropped, evicted, expired) is pushed to nobody again: its ack changes nothing.
  if redis.call('ZSCORE', xKey, item) then
    local key = prefix .. 'a:' .. ARGV[i]
    -- At most MAX_ACKS_PER_MESSAGE client ids: beyond, the ack is not recorded (the message may come again).
    if redis.call('SCARD', key) < ${MAX_ACKS_PER_MESSAGE} then
      redis.call('SADD', key, ARGV[i + 1])
      redis.call('PEXPIRE', key, ARGV[i + 2])
    end
    -- Added only by the first ack (NX), scored by the acking node's growing stamp: oldest delivered first.
    if redis.call('ZADD', dKey, 'NX', ARGV[i + 4], item) == 1 then
      local bytes, owner = string.match(item, '^%d+ (%d+) (%S+) ')
      settle(owner, tonumber(bytes))
    end
  end
end
return 0
`
  const sweep = `${HELPERS}
local swept = sweep(tonumber(ARGV[1]), ${parameters.sweepSlice})
return {swept, redis.call('ZCARD', xKey), total()}
`
  return { add, pending, watch, ack, sweep }
}
