import { randomBytes } from 'node:crypto'
import type { Redis, RedisOptions } from 'ioredis'
import { DEFAULT_REDIS_KEY_PREFIX } from '../constants.js'
import { BackendError } from '../errors.js'
import { createRedisNode } from '../redisNode.js'
import type { ReplicaWait } from '../redisOptions.js'
import { nodeScripts } from './redisStoreScripts.js'
import { createReplicaWaiter } from './replicaWait.js'
import type { RelayStore, RelayStoreContext, StoredMessage, StoreRefusal } from './store.js'
import { createSubscribeBatch } from './subscribeBatch.js'

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
}

type Scripted = Redis & {
  relayAdd(...args: (string | number)[]): Promise<number[]>
  relayPending(...args: (string | number)[]): Promise<string[][]>
  relayWatch(...args: (string | number)[]): Promise<number>
  relaySweep(...args: (string | number)[]): Promise<[number, number, number]>
  relayAck(...args: (string | number)[]): Promise<number>
}

type Added = {
  message: StoredMessage
  resolve(refusal: StoreRefusal | undefined): void
  reject(error: unknown): void
  /** Client ids that acked the message before the add answered. */
  acks?: string[]
}

type Data = { topic: string; message: string; publishedAt: number; tag: number; attestation?: string }

// A node re-registers its topics this often; the registration of a node that died expires after three periods.
const REGISTRY_REFRESH_MS = 600_000
// Topics one registration script call carries when registering them all (recovery, refresh).
const REGISTER_SLICE = 500
// Expired messages one sweep script takes: about a millisecond of Redis time.
const SWEEP_SLICE = 200
// Acks one ack script records at most (five arguments each), and messages one add script keeps at most.
const ACK_SLICE = 500
const ADD_SLICE = 100
// The add script's refusal codes (negated in its answer; a kept message's answer is its seq).
const REFUSALS: readonly (StoreRefusal | undefined)[] = [undefined, 'topic', 'address', 'total', 'network']
const ACK_ARGUMENTS = 5
// Characters of kept messages above which a read waits for the next turn before it is parsed.
const LARGE_READ = 262_144

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
  const nodeId = randomBytes(8).toString('hex')
  const channelPrefix = `${prefix}n:`
  const channel = channelPrefix + nodeId
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
  let lastStamp = 0
  // Messages (topic, entry, …) and acks (id, client id, remaining ms, ledger item, …) of this turn of the event loop: one script
  // call keeps the messages, one records the acks, both sent in one write at the end of the turn.
  let adds: string[] = []
  let added: Added[] = []
  let acks: (string | number)[] = []
  let flushing: ReturnType<typeof setImmediate> | undefined
  // Messages of this node whose add has not answered yet: the relay pushes them at once, and an ack that comes before
  // their seq waits for it (`Added.acks`).
  const keeping = new WeakMap<StoredMessage, Added>()

  const ctx = () => {
    if (!context) throw new BackendError('The Redis relay store is used before start()')
    return context
  }
  const failed = (error: unknown) => ctx().failed(error)
  const keep = (args: string[], waiting: Added[]) => {
    const rejectAll = (error: unknown) => {
      for (const one of waiting) {
        keeping.delete(one.message)
        one.reject(error)
      }
    }
    commands.relayAdd(Date.now(), ...args).then((result) => {
      const [dropped, expired, messages, bytes] = result.slice(waiting.length) as [
        number,
        number,
        number,
        number,
      ]
      size.messages = messages
      size.bytes = bytes
      if (dropped > 0) ctx().dropped(dropped)
      if (expired > 0) ctx().expired(expired)
      // What was kept is recorded (sequence numbers, acks that came first) whether or not the publisher is told so.
      for (let i = 0; i < waiting.length; i++) {
        const one = waiting[i] as Added
        const seq = result[i] as number
        keeping.delete(one.message)
        if (seq > 0) {
          one.message.seq = seq
          if (one.acks) for (const clientId of one.acks) store.ack(one.message, clientId)
        }
      }
      const answer = () => {
        for (let i = 0; i < waiting.length; i++) {
          const seq = result[i] as number
          ;(waiting[i] as Added).resolve(seq > 0 ? undefined : REFUSALS[-seq])
        }
      }
      if (!waiter) return answer()
      // Answered once replicas hold what was kept (refusals too: rare, and not worth telling apart). Unconfirmed,
      // the messages are kept all the same (their acks recorded), but the publisher is not told so.
      waiter.wait().then(answer, rejectAll)
    }, rejectAll)
  }
  // Sends the turn's messages and acks: at the end of the turn, and before any read of the mailbox (same connection),
  // so that the read sees what this node kept and acked before it.
  const flush = () => {
    if (flushing) clearImmediate(flushing)
    flushing = undefined
    for (let i = 0; i < added.length; i += ADD_SLICE)
      keep(adds.slice(i * 2, (i + ADD_SLICE) * 2), added.slice(i, i + ADD_SLICE))
    for (let i = 0; i < acks.length; i += ACK_SLICE * ACK_ARGUMENTS)
      commands.relayAck(...acks.slice(i, i + ACK_SLICE * ACK_ARGUMENTS)).catch(failed)
    adds = []
    added = []
    acks = []
  }
  const nodesKey = (topic: string) => `${prefix}s:${topic}`
  // Topics left (or the store closed) since they were queued are not registered.
  const register = (topics: readonly string[]) => {
    const live = topics.filter((topic) => watched.has(topic))
    return live.length === 0 ? Promise.resolve(0) : commands.relayWatch(REGISTRY_REFRESH_MS * 3, ...live)
  }
  const registerAll = async () => {
    const topics = [...watched]
    for (let i = 0; i < topics.length; i += REGISTER_SLICE)
      await register(topics.slice(i, i + REGISTER_SLICE))
  }
  const subscribes = createSubscribeBatch({
    flush: () => flush(),
    register,
    read: (args) => commands.relayPending(...args),
  })

  // `{seq} {entry}`, as the pending script returns and the add script publishes it.
  const parse = (entry: string): StoredMessage => {
    const newline = entry.indexOf('\n')
    const [seq, expiresAt, id, from, owner, bytes] = entry.slice(0, newline).split(' ')
    const data = JSON.parse(entry.slice(newline + 1)) as Data
    return {
      topic: data.topic,
      message: data.message,
      tag: data.tag,
      publishedAt: data.publishedAt,
      expiresAt: Number(expiresAt),
      from: from ?? '',
      owner: owner ?? '',
      attestation: data.attestation,
      bytes: Number(bytes),
      // Its acks are in Redis.
      acked: undefined,
      id,
      seq: Number(seq),
    }
  }

  const onMessage = (_channel: string, entry: string) => {
    let message: StoredMessage
    try {
      message = parse(entry)
    } catch (error) {
      failed(error)
      return
    }
    // A message of a topic this node just left: nobody here to push it to.
    if (watched.has(message.topic)) ctx().deliver(message)
  }

  // From a lost connection on, what other nodes publish may be kept without reaching this node: the relay holds live
  // pushes back until the recovery below has re-read the mailbox.
  const lost = () => {
    if (started) ctx().recovering?.()
  }
  commands.on('close', lost)
  subscriber.on('close', lost)
  // After a lost connection (a Redis restart may have lost every key): listen again, register every topic again,
  // then have the relay push to its sockets what the mailbox keeps for them. Retried until it succeeds.
  node.onReconnect(async () => {
    if (!started) return
    // ioredis re-subscribes after it says "ready"; registering before the channel listens would lose pushes.
    await subscriber.subscribe(channel)
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
      await node.connect([channel], failed)
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
    add(message) {
      const owner = message.owner || '-'
      if (!context) return Promise.reject(new BackendError('The Redis relay store is used before start()'))
      if (/\s/.test(message.from) || /\s/.test(owner))
        return Promise.reject(new BackendError('Unexpected whitespace in a client id'))
      const id = nodeId + (nextId++).toString(36)
      const data: Data = {
        topic: message.topic,
        message: message.message,
        publishedAt: message.publishedAt,
        tag: message.tag,
      }
      if (message.attestation !== undefined) data.attestation = message.attestation
      message.id = id
      adds.push(
        message.topic,
        `${message.expiresAt} ${id} ${message.from} ${owner} ${message.bytes}\n${JSON.stringify(data)}`,
      )
      flushing ??= setImmediate(flush)
      return new Promise((resolve, reject) => {
        const one: Added = { message, resolve, reject }
        added.push(one)
        keeping.set(message, one)
      })
    },
    async pending(topic, clientId, now) {
      const entries = await subscribes.read(topic, clientId, now)
      // A large read is parsed (and answered) after what else this turn of the event loop received: several arriving
      // together would otherwise hold every socket of the node for all of their parsing at once.
      let length = 0
      for (const entry of entries) length += entry.length
      if (length > LARGE_READ) await new Promise(setImmediate)
      return entries.map(parse)
    },
    ack(message, clientId) {
      const waiting = keeping.get(message)
      if (waiting) {
        waiting.acks ??= []
        waiting.acks.push(clientId)
        return
      }
      const ttl = message.expiresAt - Date.now()
      if (message.id === undefined || message.seq === undefined || ttl <= 0) return
      // Its ledger item, as the add script wrote it: the ack script finds the message (and its budgets) by it.
      const item = `${message.seq} ${message.bytes} ${message.owner || '-'} ${message.id} ${message.topic}`
      // A stamp that only grows on this node (µs of the clock, or one more): the delivered set's order, kept by one
      // `ZADD NX` that also says whether this is the message's first ack.
      lastStamp = Math.max(Date.now() * 1_000, lastStamp + 1)
      acks.push(message.id, clientId, ttl, item, lastStamp)
      flushing ??= setImmediate(flush)
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
      flush()
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
