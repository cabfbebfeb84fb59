import { randomBytes } from 'node:crypto'
import type { RedisOptions } from 'ioredis'
import { DEFAULT_MAX_TOTAL_QUEUED_BYTES, DEFAULT_REDIS_KEY_PREFIX } from '../constants.js'
import { BackendError } from '../errors.js'
import { NODE_ID_LENGTH } from '../mesh/linkWire.js'
import { createNodeMesh, type NodeLinkOptions } from '../mesh/nodeMesh.js'
import { createRedisNode } from '../redisNode.js'
import { createSweeper, type Sweeper } from '../sweeper.js'
import type { Backend, BackendContext } from './backend.js'
import { createDirectBatches } from './directBatches.js'
import {
  directHead,
  type FrameHandler,
  forEachFrame,
  formatDirectFrame,
  ownerOf,
  readFrame,
} from './redisFrames.js'
import { createRedisPeers, idsOf, type Peers } from './redisPeers.js'
import { createRedisQueue, type Held, type Scripted } from './redisQueue.js'
import { createRelayLinks } from './relayLinks.js'

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

// A node re-registers its topics this often; the registration of a node that died expires after three periods.
const REGISTRY_REFRESH_MS = 600_000
// First byte of a message for the v2 store of the node ('V'; v1's are 'd', 'b', 's').
const RELAY_MESSAGE = 86

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
  if (!Number.isFinite(maxTotalBytes) || maxTotalBytes <= 0)
    throw new BackendError(`Invalid Redis backend option maxTotalQueuedBytes: ${maxTotalBytes}`)

  const known = createRedisPeers(nodeId)
  const { topics } = known
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
  const queue = createRedisQueue({
    commands,
    prefix,
    nodeId,
    nodeChannelPrefix,
    maxTotalBytes,
    ctx,
    script: (run, reached) => mesh.script(run, reached),
  })
  const { nodesKey, enqueue, publishOrHold } = queue
  const hooksKey = (topic: string) => `${prefix}w:${topic}`

  const register = (topic: string, announce: boolean) => {
    const multi = commands
      .multi()
      .sadd(nodesKey(topic), nodeId)
      .pexpire(nodesKey(topic), REGISTRY_REFRESH_MS * 3)
    if (announce) multi.publish(interestChannel, nodeId + topic)
    return multi.exec()
  }

  // Topics whose queue this node drains again after a lost connection: frames from other nodes wait until it is
  // drained (counted as delivered), so that none overtakes an older frame queued while this node was away.
  let recovering: Map<string, { frame: string; bytes: number; owner: string }[]> | undefined
  const deliverLive = (topic: string, frame: string, bytes: number, owner: string) => {
    const waiting = recovering?.get(topic)
    if (!waiting) return ctx().deliver(topic, frame, bytes)
    waiting.push({ frame, bytes, owner })
    return 1
  }
  // The topic's queue is drained: what waited goes out (back to the queue if nobody is here any more).
  const recovered = (topic: string) => {
    const waiting = recovering?.get(topic)
    if (!waiting) return
    recovering?.delete(topic)
    if (recovering?.size === 0) recovering = undefined
    for (const { frame, bytes, owner } of waiting)
      if (ctx().deliver(topic, frame, bytes) === 0) enqueue(topic, frame, bytes, owner).catch(failed)
  }

  const deliverHere = (topic: string, frame: string, bytes: number, owner: string) => {
    // The publisher counted this node as a receiver and queued nothing: queue here if nobody got it.
    if (deliverLive(topic, frame, bytes, owner) === 0) enqueue(topic, frame, bytes, owner).catch(failed)
  }

  // A frame published straight to this node by `origin`, which sent it to `sentTo` (node ids, this one first or
  // among them). The publisher's cache may miss a node that registered a moment ago: the first receiver learned of
  // it from its announcement, which Redis sent before this frame, and hands the frame on through the script (which
  // reads the set). A receiver with nobody to deliver to does the same, and the script queues it if nobody got it.
  // `message` is the frame's whole message (see `onFrame`): its origin, `sentTo` and owner are read only when needed,
  // which a frame delivered here with no recent announcement of its topic never is.
  const deliverDirect = (
    topic: string,
    frame: string,
    bytes: number,
    message: Buffer,
    head: number,
    owner: number,
  ) => {
    const delivered = deliverLive(topic, frame, bytes, recovering ? ownerOf(message, owner) : '')
    // Nothing announced lately: `missed` would be false.
    if (delivered > 0 && !known.anyAnnounced(topic)) return
    const { origin, sentTo } = directHead(message, head)
    if (delivered > 0 && !(sentTo.startsWith(nodeId) && known.missed(topic, origin, sentTo))) return
    let have = `,${origin},`
    for (const id of idsOf(sentTo)) have += `${id},`
    const entry = { topic, frame, bytes, owner: ownerOf(message, owner), delivered, have, order: ++lastOrder }
    publishOrHold(entry).catch(failed)
  }
  // A frame read (see redisFrames.ts): from the script, or straight from its origin.
  const onFrame: FrameHandler = (message, topic, frame, bytes, head, ownerAt) => {
    if (head === 0) deliverHere(topic, frame, bytes, ownerOf(message, ownerAt))
    else deliverDirect(topic, frame, bytes, message, head, ownerAt)
  }
  const readOne = (message: Buffer) => readFrame(message, onFrame)

  // A frame, a batch, or nothing (a fence, from another node's stream).
  const onDirect = (message: Buffer) => {
    if (message.length === 0) return
    if (message[0] === RELAY_MESSAGE) return relay.handle(message)
    forEachFrame(message, readOne)
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
  const relay = createRelayLinks(nodeId, mesh, failed)
  const onMessage = (channel: Buffer, message: Buffer) => {
    if (channel.length === interestChannelBytes) return known.announced(message)
    // 's': numbered, from another node's stream (see nodeStreams.ts).
    if (message[0] === 115) return mesh.receive(message)
    onDirect(message)
  }

  // Through the script, which also tells which nodes receive the topic now.
  const publishScripted = (peers: Peers, entry: Held) => {
    const { version } = peers
    const askedAt = Date.now()
    return publishOrHold(entry).then((reached) => {
      if (commands.status === 'ready') known.learn(peers, reached, askedAt, version, entry.have !== '')
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
        for (const entry of entries) route(known.of(topic), entry)?.catch(failed)
    },
  )

  // Straight to the nodes that received the topic's last frames: no script. A node that did not listen (gone, or
  // reconnecting) leaves the cache; when nobody got the frame, the script publishes it to whoever the set names
  // besides those that got it, and queues it if nobody did.
  const publishDirect = (peers: Peers, entry: Held) => {
    const targets = [...peers.nodes]
    const { topic } = entry
    const { message, bytes } = formatDirectFrame(
      nodeId,
      targets,
      topic,
      entry.owner,
      entry.frame,
      entry.bytes,
    )
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
    if (queue.holdBehind(entry)) return
    const waiting = deferred.get(entry.topic)
    if (waiting) {
      waiting.push(entry)
      return
    }
    const fresh = known.fresh(peers, Date.now())
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
          for (const frame of await queue.drain(topic))
            if (ctx().deliver(topic, frame) === 0)
              enqueue(topic, frame, Buffer.byteLength(frame), '').catch(failed)
          recovered(topic)
        }),
      )
    } finally {
      for (const topic of [...(recovering?.keys() ?? [])]) recovered(topic)
      recovering = undefined
    }
    known.forgetPublished()
    await mesh.advertise()
    // In publish order; frames published meanwhile on their topics were held behind them.
    await Promise.all(queue.takeHeld().map(publishOrHold))
  }, failed)

  return {
    name: 'redis',
    relayLinks: relay.links,
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
      known.subscribe(topic)
      register(topic, true).catch(failed)
    },
    unsubscribe(topic) {
      known.unsubscribe(topic)
      commands.srem(nodesKey(topic), nodeId).catch(failed)
    },
    publish(topic, frame, bytes, delivered, owner) {
      return route(known.of(topic), { topic, frame, bytes, owner, delivered, have: '', order: ++lastOrder })
    },
    async enqueue(topic, frame, bytes, owner) {
      await enqueue(topic, frame, bytes, owner)
    },
    drain: queue.drain,
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
