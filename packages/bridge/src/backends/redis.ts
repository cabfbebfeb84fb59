import { randomBytes } from 'node:crypto'
import type { Redis, RedisOptions } from 'ioredis'
import { DEFAULT_MAX_TOTAL_QUEUED_BYTES, DEFAULT_REDIS_KEY_PREFIX } from '../constants.js'
import { BackendError } from '../errors.js'
import { readDecimal } from '../mesh/linkWire.js'
import { createNodeMesh, type NodeLinkOptions } from '../mesh/nodeMesh.js'
import { createRedisNode } from '../redisNode.js'
import { createSweeper, type Sweeper } from '../sweeper.js'
import type { Backend, BackendContext, RelayLinks } from './backend.js'
import { createDirectBatches } from './directBatches.js'
import { DRAIN_SCRIPT, ENQUEUE_SCRIPT } from './redisScripts.js'

/** Parameters of {@link createRedisBackend}. */
export type CreateRedisBackendParameters = {
  /**
   * Redis URL, e.g. `redis://127.0.0.1:6379/0`, or through Sentinel:
   * `redis+sentinel://[user:password@]host:port,host:port/master[/db]` (`parseRedisOptions`).
   */
  url: string
  /** Prefix of every key and channel, so several bridges (or test runs) can share one Redis. @default 'pairlink:bridge:' */
  keyPrefix?: string | undefined
  /** Extra ioredis options (TLS, password, …). */
  redisOptions?: RedisOptions | undefined
  /**
   * Bytes queued over all topics, shared by every node; beyond it the address with the most queued bytes loses its
   * oldest messages first.
   * @default 268435456 (256 MiB)
   */
  maxTotalQueuedBytes?: number | undefined
  /**
   * Links to the other nodes: frames for a subscriber on another node go over a TCP connection to it rather than
   * through Redis while one is up. `false`: through Redis only. @default on, listening on 127.0.0.1 (a free port)
   */
  links?: NodeLinkOptions | false | undefined
}

type Scripted = Redis & {
  pairlinkEnqueue(...args: (string | number)[]): Promise<[number, number, number, number, string]>
  pairlinkDrain(queue: string, bytes: string, prefix: string): Promise<string[]>
}

// How long a queue key outlives its newest message, so expired messages are still counted by the next push or drain.
const KEY_GRACE_MS = 3_600_000
// A node re-registers its topics this often; the registration of a node that died expires after three periods.
const REGISTRY_REFRESH_MS = 600_000
// How long a node trusts what it knows of a topic's other nodes before asking Redis again. A node that registers
// announces it on the interest channel at once, so this only bounds how long a lost announcement could matter.
const INTEREST_TTL_MS = 5_000
// Topics this node publishes on without subscribing them whose nodes it remembers; the oldest is forgotten beyond.
const MAX_PUBLISHED_TOPICS = 16_384
// A node id: 8 random bytes in hex.
const NODE_ID_LENGTH = 16
// First byte of a message for the v2 store of the node ('V'; v1's are 'd', 'b', 's').
const RELAY_MESSAGE = 86

// Bytes of publishes held while Redis is away; beyond it they are dropped and counted.
const MAX_HELD_BYTES = 16_777_216
/** What this node knows about the other nodes subscribed to a topic. */
type Peers = {
  /** Other nodes registered for the topic and listening, as far as this node knows. */
  nodes: Set<string>
  /** When Redis last told (0: never): until {@link INTEREST_TTL_MS} later, `nodes` is trusted. */
  checkedAt: number
  /** Bumped by each announcement, so an answer Redis gave before it does not undo it. */
  version: number
  /** Nodes that announced the topic lately, with the time (topics with subscribers here only). */
  announced: Map<string, number> | undefined
}

/**
 * The backend for several bridge nodes behind one address. Each node listens on a channel of its own and registers
 * in a Redis set per topic while it has subscribers of it; a `pub` goes to the registered nodes only. A frame
 * delivered on its own node while no other node subscribes its topic (the usual case) costs Redis nothing. A node
 * remembers which nodes received a topic's last frame and PUBLISHes the next ones straight to them; the script that
 * reads the set, publishes and queues atomically runs only when that cache is cold or nobody received a frame.
 * Queued messages and webhooks live in Redis with their TTL, so they survive restarts of every node and are drained
 * once, by whichever node the peer comes back to.
 *
 * @example
 * const bridge = createBridge({ backend: createRedisBackend({ url: process.env.REDIS_URL }) })
 */
export function createRedisBackend(parameters: CreateRedisBackendParameters): Backend {
  const prefix = parameters.keyPrefix ?? DEFAULT_REDIS_KEY_PREFIX
  const maxTotalBytes = parameters.maxTotalQueuedBytes ?? DEFAULT_MAX_TOTAL_QUEUED_BYTES
  const nodeId = randomBytes(8).toString('hex')
  const nodeChannelPrefix = `${prefix}n:`
  const interestChannel = `${prefix}interest`
  const interestChannelBytes = Buffer.byteLength(interestChannel)
  // Fail fast while Redis is away instead of piling commands up in memory; the relay keeps working locally.
  const node = createRedisNode<Scripted>(parameters.url, parameters.redisOptions, {
    autoPipeliningIgnoredCommands: ['publish'],
  })
  const { commands, subscriber } = node
  commands.defineCommand('pairlinkEnqueue', { numberOfKeys: 3, lua: ENQUEUE_SCRIPT })
  commands.defineCommand('pairlinkDrain', { numberOfKeys: 2, lua: DRAIN_SCRIPT })
  if (!Number.isFinite(maxTotalBytes) || maxTotalBytes <= 0)
    throw new BackendError(`Invalid Redis backend option maxTotalQueuedBytes: ${maxTotalBytes}`)

  // Topics with subscribers on this node. While no other node has any, a frame delivered here needs no Redis at all.
  const topics = new Map<string, Peers>()
  // Topics this node published on without subscribing them (bounded, oldest first).
  const published = new Map<string, Peers>()
  let context: BackendContext | undefined
  let refresher: Sweeper | undefined
  // Frames this node published or handed on, numbered in that order (see `Held`).
  let lastOrder = 0
  let started = false

  const ctx = () => {
    if (!context) throw new BackendError('The Redis backend is used before start()')
    return context
  }
  const failed = (error: unknown) => {
    const { counts, logger } = ctx()
    counts.backendErrors++
    logger.warn(
      { backend: 'redis', error: error instanceof Error ? error.message : String(error) },
      'redis error',
    )
  }
  const nodesKey = (topic: string) => `${prefix}s:${topic}`
  const queueKey = (topic: string) => `${prefix}q:${topic}`
  const bytesKey = (topic: string) => `${prefix}qb:${topic}`
  const hooksKey = (topic: string) => `${prefix}w:${topic}`

  const register = (topic: string, announce: boolean) => {
    const multi = commands
      .multi()
      .sadd(nodesKey(topic), nodeId)
      .pexpire(nodesKey(topic), REGISTRY_REFRESH_MS * 3)
    if (announce) multi.publish(interestChannel, nodeId + topic)
    return multi.exec()
  }

  const peersOf = (topic: string) => {
    let peers = topics.get(topic) ?? published.get(topic)
    if (!peers) {
      peers = { nodes: new Set(), checkedAt: 0, version: 0, announced: undefined }
      published.set(topic, peers)
      if (published.size > MAX_PUBLISHED_TOPICS) published.delete(published.keys().next().value as string)
    }
    return peers
  }

  // What the script answered: the nodes that received the frame when it ran. Nodes announced since are kept, and so
  // are those the script was told had the frame already (`partial`).
  const idsOf = (joined: string) => {
    const ids: string[] = []
    for (let at = 0; at < joined.length; at += NODE_ID_LENGTH) ids.push(joined.slice(at, at + NODE_ID_LENGTH))
    return ids
  }
  const learn = (peers: Peers, reached: string, askedAt: number, version: number, partial: boolean) => {
    if (!partial && peers.version === version) peers.nodes.clear()
    for (let at = 0; at < reached.length; at += NODE_ID_LENGTH)
      peers.nodes.add(reached.slice(at, at + NODE_ID_LENGTH))
    if (!partial) peers.checkedAt = askedAt
  }

  const enqueue = async (
    topic: string,
    frame: string,
    bytes: number,
    owner: string,
    fanOut = false,
    delivered = 0,
    have = '',
  ) => {
    const { counts, queue } = ctx()
    const ttlMs = Math.max(1, Math.round(queue.ttlSeconds * 1000))
    const run = () =>
      commands.pairlinkEnqueue(
        nodesKey(topic),
        queueKey(topic),
        bytesKey(topic),
        prefix,
        nodeId,
        topic,
        frame,
        delivered,
        bytes,
        queue.maxQueueLength,
        queue.maxQueuedBytes,
        ttlMs,
        Date.now(),
        ttlMs + Math.min(ttlMs, KEY_GRACE_MS),
        fanOut ? nodeChannelPrefix : '',
        owner,
        queue.maxQueuedBytesPerOwner,
        maxTotalBytes,
        have,
      )
    // A script that publishes runs in order with the frames on the links, and fences the nodes it reached.
    const [queued, dropped, expired, refused, reached] = await (fanOut
      ? mesh.script(run, (result) => idsOf(result[4]))
      : run())
    counts.queued += queued
    counts.refusedQueuedBytesPerIp += refused
    counts.dropped += dropped
    counts.expired += expired
    return reached
  }

  // Registration and drain go through the same connection, in order: the drain sees every frame queued before
  // other nodes could see this node in the topic's set.
  const drain = async (topic: string) => {
    const entries = await commands.pairlinkDrain(queueKey(topic), bytesKey(topic), prefix)
    const now = Date.now()
    const frames: string[] = []
    for (const entry of entries) {
      const sep = entry.indexOf(':')
      if (Number(entry.slice(0, sep)) > now) frames.push(entry.slice(sep + 1))
      else ctx().counts.expired++
    }
    return frames
  }

  // Topics whose queue this node drains again after a lost connection: frames from other nodes wait until it is
  // drained (counted as delivered), so that none overtakes an older frame queued while this node was away.
  let recovering: Map<string, { frame: string; owner: string }[]> | undefined
  const deliverLive = (topic: string, frame: string, owner: string) => {
    const waiting = recovering?.get(topic)
    if (!waiting) return ctx().deliver(topic, frame)
    waiting.push({ frame, owner })
    return 1
  }
  // The topic's queue is drained: what waited goes out (back to the queue if nobody is here any more).
  const recovered = (topic: string) => {
    const waiting = recovering?.get(topic)
    if (!waiting) return
    recovering?.delete(topic)
    if (recovering?.size === 0) recovering = undefined
    for (const { frame, owner } of waiting)
      if (ctx().deliver(topic, frame) === 0)
        enqueue(topic, frame, Buffer.byteLength(frame), owner).catch(failed)
  }

  const deliverHere = (topic: string, frame: string, owner: string) => {
    // The publisher counted this node as a receiver and queued nothing: queue here if nobody got it.
    if (deliverLive(topic, frame, owner) === 0)
      enqueue(topic, frame, Buffer.byteLength(frame), owner).catch(failed)
  }

  // A frame published straight to this node by `origin`, which sent it to `sentTo` (node ids, this one first or
  // among them). The publisher's cache may miss a node that registered a moment ago: the first receiver learned of
  // it from its announcement, which Redis sent before this frame, and hands the frame on through the script (which
  // reads the set). A receiver with nobody to deliver to does the same, and the script queues it if nobody got it.
  // `message` is the frame's whole message (see `onFrame`): its origin, `sentTo` and owner are read only when needed,
  // which a frame delivered here with no recent announcement of its topic never is.
  const deliverDirect = (topic: string, frame: string, message: Buffer, head: number, owner: number) => {
    const delivered = deliverLive(topic, frame, recovering ? ownerOf(message, owner) : '')
    // Nothing announced lately: `missed` would be false.
    if (delivered > 0 && !topics.get(topic)?.announced) return
    const origin = message.toString('latin1', 1, 1 + NODE_ID_LENGTH)
    const sentTo = message.toString('latin1', 1 + NODE_ID_LENGTH, head - 1)
    if (delivered > 0 && !(sentTo.startsWith(nodeId) && missed(topic, origin, sentTo))) return
    let have = `,${origin},`
    for (let at = 0; at < sentTo.length; at += NODE_ID_LENGTH)
      have += `${sentTo.slice(at, at + NODE_ID_LENGTH)},`
    const bytes = Buffer.byteLength(frame)
    const entry = { topic, frame, bytes, owner: ownerOf(message, owner), delivered, have, order: ++lastOrder }
    publishOrHold(entry).catch(failed)
  }
  // Whether a node announced `topic` lately and `origin` did not send to it.
  const missed = (topic: string, origin: string, sentTo: string) => {
    const announced = topics.get(topic)?.announced
    if (!announced) return false
    const now = Date.now()
    for (const [node, at] of announced) {
      if (now - at > INTEREST_TTL_MS) announced.delete(node)
      else if (node !== origin && !sentTo.includes(node)) return true
    }
    return false
  }

  const onAnnouncement = (message: Buffer) => {
    const node = message.toString('latin1', 0, NODE_ID_LENGTH)
    if (node === nodeId) return
    const topic = message.toString('utf8', NODE_ID_LENGTH)
    const mine = topics.get(topic)
    const peers = mine ?? published.get(topic)
    if (!peers) return
    peers.nodes.add(node)
    peers.version++
    if (!mine) return
    mine.announced ??= new Map()
    mine.announced.set(node, Date.now())
  }

  // `d{origin}{ids sent to}:` before a direct frame; a frame the script published has no such head. Then
  // `{topic bytes}:{topic}{owner bytes}:{owner}{frame}`; the numbers are read without a string on the way.
  const ownerOf = (message: Buffer, at: number) => {
    const sep = message.indexOf(58, at)
    return message.toString('utf8', sep + 1, sep + 1 + readDecimal(message, at, sep))
  }
  const onFrame = (message: Buffer) => {
    const direct = message[0] === 100 // 'd'
    const head = direct ? message.indexOf(58) + 1 : 0
    const sep = message.indexOf(58, head)
    const ownerAt = sep + 1 + readDecimal(message, head, sep)
    const ownerSep = message.indexOf(58, ownerAt)
    const ownerEnd = ownerSep + 1 + readDecimal(message, ownerAt, ownerSep)
    const topic = message.toString('utf8', sep + 1, ownerAt)
    const frame = message.toString('utf8', ownerEnd)
    if (!direct) return deliverHere(topic, frame, ownerOf(message, ownerAt))
    deliverDirect(topic, frame, message, head, ownerAt)
  }

  // A frame, a batch, or nothing (a fence, from another node's stream).
  const onDirect = (message: Buffer) => {
    if (message.length === 0) return
    if (message[0] === RELAY_MESSAGE) return relayHandler?.(message)
    if (message[0] !== 98) return onFrame(message) // 'b': direct frames of one turn, `{bytes}:{frame}` each
    for (let at = 1; at < message.length; ) {
      const sep = message.indexOf(58, at)
      const end = sep + 1 + readDecimal(message, at, sep)
      onFrame(message.subarray(sep + 1, end))
      at = end
    }
  }
  const mesh = createNodeMesh({
    nodeId,
    prefix,
    commands,
    links: parameters.links ?? {},
    handle: onDirect,
    failed: (error) => failed(error),
    gap: (origin, missing) => {
      ctx().counts.backendErrors++
      ctx().logger.warn({ backend: 'redis', origin, missing }, 'frames from another node given up')
    },
  })
  const onMessage = (channel: Buffer, message: Buffer) => {
    if (channel.length === interestChannelBytes) return onAnnouncement(message)
    // 's': numbered, from another node's stream (see nodeStreams.ts).
    if (message[0] === 115) return mesh.receive(message)
    onDirect(message)
  }

  // Publishes that failed because Redis was away, kept (bounded) and sent once it is back: a peer subscribed on
  // another node must not lose what was published while this node reconnected.
  // `order`: when it was published here, so that held frames go out in publish order, whenever each failed (one
  // still waiting for its answer fails after later ones that were refused at once).
  type Held = {
    topic: string
    frame: string
    bytes: number
    owner: string
    delivered: number
    have: string
    order: number
  }
  let held: Held[] = []
  let heldBytes = 0
  // Topics with held frames: a later frame of one is held behind them rather than overtake them.
  const heldTopics = new Set<string>()
  const hold = (entry: Held) => {
    if (heldBytes + entry.bytes > MAX_HELD_BYTES) return false
    held.push(entry)
    heldBytes += entry.bytes
    heldTopics.add(entry.topic)
    return true
  }
  const publishOrHold = (entry: Held) =>
    enqueue(entry.topic, entry.frame, entry.bytes, entry.owner, true, entry.delivered, entry.have).catch(
      (error: unknown) => {
        // Connected and writable: Redis refused the script itself. A connection that just died may still say
        // `ready` (its close event comes later) while its stream no longer takes writes: that frame is held too.
        if (commands.status === 'ready' && commands.stream?.writable) throw error
        if (!hold(entry)) {
          ctx().counts.dropped++
          throw error
        }
        return ''
      },
    )

  // Through the script, which also tells which nodes receive the topic now.
  const publishScripted = (peers: Peers, entry: Held) => {
    const { version } = peers
    const askedAt = Date.now()
    return publishOrHold(entry).then((reached) => {
      if (commands.status === 'ready') learn(peers, reached, askedAt, version, entry.have !== '')
    })
  }

  // Direct frames go out once per turn and node (see directBatches.ts), over the link or the node's channel. Topics
  // with a frame waiting, and frames of those topics that must go through the script meanwhile: sent after the
  // batches, in order, so no frame overtakes an earlier one.
  const batched = new Set<string>()
  const deferred = new Map<string, Held[]>()
  const batches = createDirectBatches(
    (node, message, bytes, resolve, reject) => {
      const { send } = mesh
      if (send) send(node, message, bytes, resolve, reject)
      else commands.publish(nodeChannelPrefix + node, message).then(resolve, reject)
    },
    () => {
      batched.clear()
      if (deferred.size === 0) return
      const waiting = [...deferred]
      deferred.clear()
      for (const [topic, entries] of waiting)
        for (const entry of entries) route(peersOf(topic), entry)?.catch(failed)
    },
  )

  // Straight to the nodes that received the topic's last frames: no script. A node that did not listen (gone, or
  // reconnecting) leaves the cache; when nobody got the frame, the script publishes it to whoever the set names
  // besides those that got it, and queues it if nobody did.
  const publishDirect = (peers: Peers, entry: Held) => {
    const targets = [...peers.nodes]
    const { topic, owner, frame } = entry
    const topicBytes = Buffer.byteLength(topic)
    const ownerBytes = Buffer.byteLength(owner)
    const head = `d${nodeId}${targets.join('')}:${topicBytes}:`
    const ownerHead = `${ownerBytes}:`
    const message = `${head}${topic}${ownerHead}${owner}${frame}`
    // The head and owner length are ASCII.
    const bytes = head.length + topicBytes + ownerHead.length + ownerBytes + entry.bytes
    batched.add(topic)
    const reached = (listeners: readonly number[]) => {
      let received = 0
      let have = ','
      for (let i = 0; i < targets.length; i++) {
        const node = targets[i] as string
        if (listeners[i] === 0) peers.nodes.delete(node)
        else have += `${node},`
        received += listeners[i] as number
      }
      if (have.length === 1 + targets.length * (NODE_ID_LENGTH + 1)) return
      return publishScripted(peers, { ...entry, delivered: entry.delivered + received, have })
    }
    const scripted = () => publishScripted(peers, entry)
    // One other node (the usual case): no Promise.all.
    if (targets.length === 1)
      return batches
        .add(targets[0] as string, message, bytes)
        .then((listeners) => (listeners > 0 ? undefined : reached([listeners])), scripted)
    return Promise.all(targets.map((node) => batches.add(node, message, bytes))).then(reached, scripted)
  }

  const route = (peers: Peers, entry: Held): Promise<void> | undefined => {
    if (heldTopics.size > 0 && heldTopics.has(entry.topic) && hold(entry)) return
    const waiting = deferred.get(entry.topic)
    if (waiting) {
      waiting.push(entry)
      return
    }
    const fresh = Date.now() - peers.checkedAt < INTEREST_TTL_MS
    if (fresh && peers.nodes.size > 0) return publishDirect(peers, entry)
    // No other node subscribes: done if delivered here, else the script queues it (or finds a newcomer).
    if (fresh && entry.delivered > 0) return
    if (!batched.has(entry.topic)) return publishScripted(peers, entry)
    deferred.set(entry.topic, [entry])
  }

  // After a connection was lost (a Redis restart loses every key), publishers dropped this node from the topic sets
  // and queued for it instead: once both connections are back and the node channel is listened to again, register
  // every topic again, take what was queued meanwhile, then send what was held. Retried until it succeeds.
  node.onReconnect(async () => {
    if (!started) return
    recovering = new Map([...topics.keys()].map((topic) => [topic, []]))
    try {
      // ioredis re-subscribes after it says "ready"; registering before the channel listens would lose frames.
      await subscriber.subscribe(nodeChannelPrefix + nodeId, interestChannel)
      await Promise.all(
        [...topics].map(async ([topic, peers]) => {
          await register(topic, true)
          // Other nodes may have dropped this one, or restarted: ask the script again.
          peers.checkedAt = 0
          peers.version++
          // Queued frames put back here are charged to the relay itself: their publisher is not known any more.
          for (const frame of await drain(topic))
            if (ctx().deliver(topic, frame) === 0)
              enqueue(topic, frame, Buffer.byteLength(frame), '').catch(failed)
          recovered(topic)
        }),
      )
    } finally {
      for (const topic of [...(recovering?.keys() ?? [])]) recovered(topic)
      recovering = undefined
    }
    published.clear()
    await mesh.advertise()
    // In publish order; frames published meanwhile on their topics were held behind them.
    const sending = held.sort((first, second) => first.order - second.order)
    held = []
    heldBytes = 0
    heldTopics.clear()
    await Promise.all(sending.map(publishOrHold))
  }, failed)

  let relayHandler: ((message: Buffer) => void) | undefined
  const relayLinks: RelayLinks = {
    nodeId,
    get ready() {
      return mesh.send !== undefined
    },
    send(node, message, gone) {
      const send = mesh.send
      if (!send) return false
      send(
        node,
        message,
        Buffer.byteLength(message),
        (listeners) => {
          if (listeners === 0) gone()
        },
        failed,
      )
      return true
    },
    listen(handler) {
      relayHandler = handler
    },
  }

  return {
    name: 'redis',
    relayLinks,
    async start(value) {
      context = value
      subscriber.on('messageBuffer', onMessage)
      await node.connect([nodeChannelPrefix + nodeId, interestChannel], failed)
      try {
        await mesh.start()
      } catch (error) {
        await mesh.close()
        await node.close()
        throw error instanceof BackendError
          ? error
          : new BackendError('Cannot start the node links', { cause: error })
      }
      // A slice of the topics at a time: 10 000 registrations in one loop would hold deliveries up.
      refresher = createSweeper({
        intervalMs: REGISTRY_REFRESH_MS,
        items: () => topics,
        visit: ([topic]) => register(topic, false).catch(failed),
      })
      started = true
    },
    subscribe(topic) {
      // Unknown until the script answers: assume other nodes. What was learnt while only publishing carries over.
      const peers = published.get(topic)
      published.delete(topic)
      topics.set(topic, peers ?? { nodes: new Set(), checkedAt: 0, version: 0, announced: undefined })
      register(topic, true).catch(failed)
    },
    unsubscribe(topic) {
      const peers = topics.get(topic)
      topics.delete(topic)
      if (peers) published.set(topic, { ...peers, announced: undefined })
      commands.srem(nodesKey(topic), nodeId).catch(failed)
    },
    publish(topic, frame, bytes, delivered, owner) {
      return route(peersOf(topic), { topic, frame, bytes, owner, delivered, have: '', order: ++lastOrder })
    },
    async enqueue(topic, frame, bytes, owner) {
      await enqueue(topic, frame, bytes, owner)
    },
    drain,
    async addWebhook(topic, url) {
      const { webhooks } = ctx()
      const now = Date.now()
      const ttlMs = Math.max(1, Math.round(webhooks.ttlSeconds * 1000))
      const key = hooksKey(topic)
      // Scored by expiry: the newest registrations rank last and survive the per-topic cap.
      await commands
        .multi()
        .zadd(key, now + ttlMs, url)
        .zremrangebyscore(key, '-inf', now)
        .zremrangebyrank(key, 0, -(webhooks.maxPerTopic + 1))
        .pexpire(key, ttlMs)
        .exec()
    },
    webhooks: (topic) => commands.zrangebyscore(hooksKey(topic), Date.now(), '+inf'),
    isHealthy: () => node.isHealthy(),
    async close() {
      refresher?.stop()
      batches.flush()
      // Leave the topic sets now rather than have publishers find this node gone.
      const left = [...topics.keys()].map((topic) => commands.srem(nodesKey(topic), nodeId).catch(() => 0))
      topics.clear()
      await node.close([...left, mesh.close()])
    },
  }
}
