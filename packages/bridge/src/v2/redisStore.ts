import { randomBytes } from 'node:crypto'
import type { RedisOptions } from 'ioredis'
import type { RelayLinks } from '../backends/backend.js'
import { DEFAULT_REDIS_KEY_PREFIX } from '../constants.js'
import { BackendError } from '../errors.js'
import { createRedisNode } from '../redisNode.js'
import type { ReplicaWait } from '../redisOptions.js'
import { createHeldBack } from './heldBack.js'
import { parseEntry } from './redisEntry.js'
import { createRelayLinkTraffic } from './redisLinks.js'
import { nodeScripts } from './redisStoreScripts.js'
import { type Added, createRedisWrites, type Scripted } from './redisWrites.js'
import { createReplicaWaiter } from './replicaWait.js'
import type { RelayStore, RelayStoreContext, StoredMessage } from './store.js'
import { createSubscribeBatch } from './subscribeBatch.js'
import { createTopicPeers } from './topicPeers.js'

/** Default key and channel prefix of the v2 Redis store: v1's, then `v2:` (no v1 key starts so). */
export const DEFAULT_RELAY_REDIS_KEY_PREFIX = `${DEFAULT_REDIS_KEY_PREFIX}v2:`

/** Parameters of {@link createRedisRelayStore}. */
export type CreateRedisRelayStoreParameters = {
  /**
   * Redis URL, e.g. `redis://127.0.0.1:6379/0`, or through Sentinel:
   * `redis+sentinel://[user:password@]host:port,host:port/master[/db]` (`parseRedisOptions`).
   */
  url: string
  /** Prefix of every key and channel. @default 'pairlink:bridge:v2:' */
  keyPrefix?: string | undefined
  /** Extra ioredis options (TLS, password, …). */
  redisOptions?: RedisOptions | undefined
  /**
   * A publish is answered once its message is kept on the primary and on this many replicas (`WAIT`), so that a
   * failover to one of them keeps it; an error when they do not confirm within the timeout (docs/redis-ha.md).
   * `false`: once the primary keeps it. @default false (`parseRedisOptions` turns it on with Sentinel)
   */
  waitForReplicas?: ReplicaWait | false | undefined
  /**
   * Longest a message pushed to a live reader waits in this node's memory before it is written to Redis: a reader's
   * ack within it means it was delivered and it is never written (no Redis work at all), as a v1 frame to a live
   * subscriber costs none. A message nobody reads now is written at once. Its publish is answered once it is written
   * or acked, so an answered publish survives restarts of every node either way. `0`: every message written at the
   * end of the turn. @default 1000
   */
  writeDelayMs?: number | undefined
  /**
   * The node links of the v1 Redis backend on the same node (`backend.relayLinks`): messages for subscribers on
   * other nodes go over them (and, held back, are written by nobody once read there), as v1 frames do. Without: through
   * Redis (the add script publishes each kept message on the other nodes' channels).
   */
  links?: RelayLinks | undefined
}

// A node re-registers its topics this often; the registration of a node that died expires after three periods.
const REGISTRY_REFRESH_MS = 600_000
// Topics one registration script call carries when registering them all (recovery, refresh).
const REGISTER_SLICE = 500
// Expired messages one sweep script takes: about a millisecond of Redis time.
const SWEEP_SLICE = 200
// Characters of kept messages above which a read waits for the next turn before it is parsed.
const LARGE_READ = 262_144
// Default of `writeDelayMs`.
const DEFAULT_WRITE_DELAY_MS = 1_000
// Messages sent to other nodes while held back whose first ack there this node still expects, at most.
const MAX_SENT = 65_536

/**
 * The v2 relay's store for several nodes sharing one Redis: mailboxes, acks per client and budgets live in Redis
 * (they survive restarts of every node), and a message published on one node is pushed by every node registered for
 * its topic. Layout and scripts: `docs/relay-v2.md` ("Redis").
 *
 * @example
 * const relay = createRelay({ store: createRedisRelayStore({ url: process.env.REDIS_URL }) })
 * await relay.start()
 */
export function createRedisRelayStore(parameters: CreateRedisRelayStoreParameters): RelayStore {
  const prefix = parameters.keyPrefix ?? DEFAULT_RELAY_REDIS_KEY_PREFIX
  const links = parameters.links
  // On the links, this node answers to the id they know it by.
  const nodeId = links?.nodeId ?? randomBytes(8).toString('hex')
  const channelPrefix = `${prefix}n:`
  const channel = channelPrefix + nodeId
  // `{node} {topic}`: a node registered for a topic (so that nodes holding its messages back write them now).
  const interestChannel = `${prefix}interest`
  const writeDelay = parameters.writeDelayMs ?? DEFAULT_WRITE_DELAY_MS
  // Fail fast while Redis is away instead of piling commands up in memory: the client gets an error and retries.
  const node = createRedisNode<Scripted>(parameters.url, parameters.redisOptions)
  const { commands, subscriber } = node
  // WAIT blocks its connection: it gets one of its own.
  const waiter = parameters.waitForReplicas
    ? createReplicaWaiter(
        parameters.url,
        parameters.redisOptions,
        parameters.waitForReplicas,
        `${prefix}replicated`,
        () => ctx().logger,
      )
    : undefined

  // Topics with subscribers on this node: registered in `s:{topic}` so publishers on other nodes reach them.
  const watched = new Set<string>()
  const size = { messages: 0, bytes: 0 }
  let context: RelayStoreContext | undefined
  let refresher: ReturnType<typeof setInterval> | undefined
  let started = false
  let nextId = 0
  // Messages of this node whose add has not answered yet: the relay pushes them at once, and an ack that comes before
  // their seq waits for it (`Added.acks`). A Map, not a WeakMap: every add ends in `written`, `lost` or `delivered`,
  // which take it out, and a WeakMap's entries cost every young-generation collection (one per message here).
  const keeping = new Map<StoredMessage, Added>()
  // Messages held in memory before they are written (`writeDelayMs`); sent ones whose first ack on another node is
  // awaited, by id.
  const held = createHeldBack<Added>((one) => writes.queue(one))
  const sent = new Map<string, Added>()
  // Messages held back whose topic was being written, per topic: sent over the links once those writes answered.
  const behindWrites = new Map<string, Added[]>()
  const sendHeld = (one: Added, nodes: readonly string[]) => {
    const { message } = one
    one.sentTo = nodes
    traffic?.send(nodes, 0, message, one.json)
    if (sent.size >= MAX_SENT) sent.delete(sent.keys().next().value as string)
    sent.set(message.id as string, one)
  }
  const peers = createTopicPeers()

  const ctx = () => {
    if (!context) throw new BackendError('The Redis relay store is used before start()')
    return context
  }
  const failed = (error: unknown) => ctx().failed(error)

  // A message from another node (its channel or a link): pushed to this node's subscribers of its topic. One of a
  // topic this node just left has nobody here to go to.
  const deliverHere = (message: StoredMessage, json?: string) => {
    if (watched.has(message.topic)) ctx().deliver(message, json)
  }

  // Delivered before it was written: it never is, and its publish is answered now.
  const delivered = (one: Added) => {
    held.drop(one)
    keeping.delete(one.message)
    if (one.sentTo) sent.delete(one.message.id as string)
    one.resolve(undefined)
  }

  const traffic = links
    ? createRelayLinkTraffic({
        links,
        deliver: deliverHere,
        acked(id, clientId) {
          const one = sent.get(id)
          if (!one) return
          sent.delete(id)
          if (one.due > 0) delivered(one)
          else store.ack(one.message, clientId)
        },
        gone(node, topic) {
          peers.remove(node)
          commands.srem(nodesKey(topic), node).catch(failed)
        },
        failed: (error) => failed(error),
      })
    : undefined
  // Whether the add script hands kept messages to other nodes itself (on their channels), rather than this node over
  // the links.
  const publishing = () => !traffic || !links?.ready

  const writes = createRedisWrites({
    commands,
    waiter,
    publishing,
    written(one, seq, nodes, published) {
      const { message } = one
      keeping.delete(message)
      // The other nodes registered for its topic, as the script found them: over the links, those it was not sent to
      // while held back get it now.
      if (nodes !== undefined) {
        const others = peers.learn(message.topic, nodes, Date.now())
        if (!published && seq > 0)
          traffic?.send(
            others.filter((other) => !one.sentTo?.includes(other)),
            seq,
            message,
            one.json,
          )
      }
      if (seq > 0) {
        message.seq = seq
        if (one.acks) for (const clientId of one.acks) store.ack(message, clientId)
      }
    },
    lost: (one) => keeping.delete(one.message),
    counted(dropped, expired, messages, bytes) {
      size.messages = messages
      size.bytes = bytes
      if (dropped > 0) ctx().dropped(dropped)
      if (expired > 0) ctx().expired(expired)
    },
    failed: (error) => failed(error),
    flushed: () => traffic?.flush(),
    // The topic's writes answered (and their messages went to the other nodes): what waited behind them goes now,
    // but what was written meanwhile, which its write sent.
    idle(topic) {
      const waiting = behindWrites.get(topic)
      if (!waiting) return
      behindWrites.delete(topic)
      const others = peers.of(topic, Date.now())
      for (const one of waiting) if (one.due !== 0) sendHeld(one, others ?? [])
    },
  })
  // Another node registered for a topic: what this node holds back of it is written now, so that it reaches that node.
  const onInterest = (text: string) => {
    const space = text.indexOf(' ')
    const other = text.slice(0, space)
    if (other === nodeId) return
    const topic = text.slice(space + 1)
    peers.add(topic, other)
    held.release(topic)
  }

  const nodesKey = (topic: string) => `${prefix}s:${topic}`
  // Topics left (or the store closed) since they were queued are not registered. `announce`: tell the other nodes
  // (a first subscriber here), not when registering again (refresh, recovery).
  const register = (topics: readonly string[], announce = true) => {
    const live = topics.filter((topic) => watched.has(topic))
    return live.length === 0
      ? Promise.resolve(0)
      : commands.relayWatch(REGISTRY_REFRESH_MS * 3, announce ? 1 : 0, ...live)
  }
  const registerAll = async () => {
    const topics = [...watched]
    for (let i = 0; i < topics.length; i += REGISTER_SLICE)
      await register(topics.slice(i, i + REGISTER_SLICE), false)
  }
  const subscribes = createSubscribeBatch({
    flush: () => writes.flush(),
    register,
    read: (args) => commands.relayPending(...args),
  })

  const onMessage = (from: string, entry: string) => {
    if (from === interestChannel) return onInterest(entry)
    let message: StoredMessage
    try {
      message = parseEntry(entry)
    } catch (error) {
      failed(error)
      return
    }
    deliverHere(message)
  }

  // From a lost connection on, what other nodes publish may be kept without reaching this node: the relay holds live
  // pushes back until the recovery below has re-read the mailbox. What this node knew of other nodes may be stale
  // (announcements may have been lost): what it holds back is written.
  const lost = () => {
    if (!started) return
    peers.clear()
    held.release()
    ctx().recovering?.()
  }
  commands.on('close', lost)
  subscriber.on('close', lost)
  // After a lost connection (a Redis restart may have lost every key): listen again, register every topic again,
  // then have the relay push to its sockets what the mailbox keeps for them. Retried until it succeeds.
  node.onReconnect(async () => {
    if (!started) return
    // ioredis re-subscribes after it says "ready"; registering before the channel listens would lose pushes.
    await subscriber.subscribe(channel, interestChannel)
    await registerAll()
    ctx().recovered()
  }, failed)

  const store: RelayStore = {
    name: 'redis',
    async start(value) {
      context = value
      const scripts = nodeScripts({ prefix, nodeId, channelPrefix, ...value.limits, sweepSlice: SWEEP_SLICE })
      commands.defineCommand('relayAdd', { numberOfKeys: 0, lua: scripts.add })
      commands.defineCommand('relayPending', { numberOfKeys: 0, lua: scripts.pending })
      commands.defineCommand('relayWatch', { numberOfKeys: 0, lua: scripts.watch })
      commands.defineCommand('relaySweep', { numberOfKeys: 0, lua: scripts.sweep })
      commands.defineCommand('relayAck', { numberOfKeys: 0, lua: scripts.ack })
      subscriber.on('message', onMessage)
      traffic?.listen()
      await node.connect([channel, interestChannel], failed)
      try {
        await waiter?.connect(failed)
        const [, messages, bytes] = await commands.relaySweep(Date.now())
        size.messages = messages
        size.bytes = bytes
      } catch (error) {
        commands.disconnect()
        subscriber.disconnect()
        waiter?.disconnect()
        throw new BackendError('Cannot connect to Redis', { cause: error })
      }
      refresher = setInterval(() => {
        registerAll().catch(failed)
      }, REGISTRY_REFRESH_MS)
      refresher.unref()
      started = true
    },
    add(message, read = false, json) {
      const owner = message.owner || '-'
      if (!context) return Promise.reject(new BackendError('The Redis relay store is used before start()'))
      if (/\s/.test(message.from) || /\s/.test(owner))
        return Promise.reject(new BackendError('Unexpected whitespace in a client id'))
      const id = nodeId + (nextId++).toString(36)
      message.id = id
      const { topic } = message
      const now = Date.now()
      return new Promise((resolve, reject) => {
        const one: Added = { message, resolve, reject, due: 0, json }
        keeping.set(message, one)
        // Held back while a reader may ack it soon (one here, or another node subscribed to the topic) and the nodes
        // of the topic are known and every one of them is reachable over the links (none, mostly). Over the links it
        // goes to them now, or, while a message of its topic is being written (the write sends it to them once
        // answered), right after those. With no reader anywhere (a proposal before the wallet scans, a request to a
        // wallet offline) it is written at once: nobody could ack it meanwhile.
        const others = writeDelay > 0 ? peers.of(topic, now) : undefined
        if (others && (others.length === 0 ? read : !publishing())) {
          held.hold(one, now + writeDelay)
          if (others.length === 0) return
          if (!writes.writing(topic)) return sendHeld(one, others)
          const waiting = behindWrites.get(topic)
          if (waiting) waiting.push(one)
          else behindWrites.set(topic, [one])
          return
        }
        // Written now: what the topic holds back goes first, so the mailbox keeps publish order.
        held.release(topic)
        writes.queue(one)
      })
    },
    async pending(topic, clientId, now) {
      // What this node holds back of the topic is written first (the read's turn sends it before reading).
      held.release(topic)
      const entries = await subscribes.read(topic, clientId, now)
      // A large read is parsed (and answered) after what else this turn of the event loop received: several arriving
      // together would otherwise hold every socket of the node for all of their parsing at once.
      let length = 0
      for (const entry of entries) length += entry.length
      if (length > LARGE_READ) await new Promise(setImmediate)
      const kept = entries.map(parseEntry)
      // What other nodes hold back and sent here, for a reader that (re)subscribes here before they write it.
      const unwritten = traffic?.unwritten(topic, clientId) ?? []
      if (unwritten.length === 0) return kept
      const ids = new Set(kept.map((message) => message.id))
      return [...kept, ...unwritten.filter((message) => !ids.has(message.id))]
    },
    ack(message, clientId) {
      const waiting = keeping.get(message)
      if (waiting && waiting.due > 0) return delivered(waiting)
      if (waiting) {
        waiting.acks ??= []
        waiting.acks.push(clientId)
        return
      }
      // Held back by another node: that node is told.
      if (traffic?.ack(message, clientId)) return
      writes.ack(message, clientId)
    },
    watch(topic) {
      watched.add(topic)
      return subscribes.watch(topic)
    },
    unwatch(topic) {
      watched.delete(topic)
      commands.srem(nodesKey(topic), nodeId).catch(failed)
    },
    async sweep(now) {
      const [expired, messages, bytes] = await commands.relaySweep(now)
      size.messages = messages
      size.bytes = bytes
      return { expired, done: expired < SWEEP_SLICE }
    },
    size: () => ({ messages: size.messages, bytes: size.bytes }),
    isHealthy: () => node.isHealthy(),
    async close() {
      started = false
      held.stop()
      held.release()
      writes.flush()
      if (refresher) clearInterval(refresher)
      // Leave the topic sets now rather than have publishers find this node gone.
      const left = [...watched].map((topic) => commands.srem(nodesKey(topic), nodeId).catch(() => 0))
      watched.clear()
      await node.close(left)
      waiter?.disconnect()
    },
  }
  return store
}
