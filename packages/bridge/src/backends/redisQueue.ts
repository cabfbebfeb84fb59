// The Redis backend's queues: the enqueue script (reads a topic's nodes, publishes to them, queues when nobody got the
// frame, enforces the byte budgets) and the drain script, and the publishes held while Redis is away.
import type { Redis } from 'ioredis'
import type { BackendContext } from './backend.js'
import { idsOf } from './redisPeers.js'
import { DRAIN_SCRIPT, ENQUEUE_SCRIPT } from './redisScripts.js'

/** The node's command connection with the backend's scripts defined. */
export type Scripted = Redis & {
  pairlinkEnqueue(...args: (string | number)[]): Promise<[number, number, number, number, string]>
  pairlinkDrain(queue: string, bytes: string, prefix: string): Promise<string[]>
}

/**
 * A frame on its way through the script. `order`: when it was published here, so that frames held while Redis was
 * away go out in publish order, whenever each failed (one still waiting for its answer fails after later ones that
 * were refused at once).
 */
export type Held = {
  topic: string
  frame: string
  bytes: number
  owner: string
  /** Subscribers that got it already (on this node and those in `have`). */
  delivered: number
  /** `,{id},…` of the nodes that have it already ('' for none). */
  have: string
  order: number
}

// How long a queue key outlives its newest message, so expired messages are still counted by the next push or drain.
const KEY_GRACE_MS = 3_600_000
// Bytes of publishes held while Redis is away; beyond it they are dropped and counted.
const MAX_HELD_BYTES = 16_777_216

/** Parameters of {@link createRedisQueue}. */
export type CreateRedisQueueParameters = {
  commands: Scripted
  prefix: string
  nodeId: string
  /** Prefix of the nodes' channels, which a publishing script sends to. */
  nodeChannelPrefix: string
  maxTotalBytes: number
  ctx(): BackendContext
  /** Runs a script that publishes in order with the frames on the links (nodeMesh.ts `script`). */
  script<T>(run: () => Promise<T>, reached: (result: T) => string[]): Promise<T>
}

/** The queue side of one Redis backend node. */
export function createRedisQueue(parameters: CreateRedisQueueParameters) {
  const { commands, prefix, nodeId, nodeChannelPrefix, maxTotalBytes, ctx } = parameters
  commands.defineCommand('pairlinkEnqueue', { numberOfKeys: 3, lua: ENQUEUE_SCRIPT })
  commands.defineCommand('pairlinkDrain', { numberOfKeys: 2, lua: DRAIN_SCRIPT })
  const nodesKey = (topic: string) => `${prefix}s:${topic}`
  const queueKey = (topic: string) => `${prefix}q:${topic}`
  const bytesKey = (topic: string) => `${prefix}qb:${topic}`

  /**
   * Queues `frame` unless `fanOut` and a node of the topic gets it (the script publishes it to the registered nodes
   * not in `have`); resolves with the ids of the nodes it reached, joined.
   */
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
      ? parameters.script(run, (result) => idsOf(result[4]))
      : run())
    counts.queued += queued
    counts.refusedQueuedBytesPerIp += refused
    counts.dropped += dropped
    counts.expired += expired
    return reached
  }

  // Publishes that failed because Redis was away, kept (bounded) and sent once it is back: a peer subscribed on
  // another node must not lose what was published while this node reconnected.
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

  return {
    nodesKey,
    enqueue,
    /**
     * Takes the topic's queue. Registration and drain go through the same connection, in order: the drain sees every
     * frame queued before other nodes could see this node in the topic's set.
     */
    async drain(topic: string) {
      const entries = await commands.pairlinkDrain(queueKey(topic), bytesKey(topic), prefix)
      const now = Date.now()
      const frames: string[] = []
      for (const entry of entries) {
        const sep = entry.indexOf(':')
        if (Number(entry.slice(0, sep)) > now) frames.push(entry.slice(sep + 1))
        else ctx().counts.expired++
      }
      return frames
    },
    /** Through the script, fanned out; held (bounded) while Redis is away. Resolves with the nodes it reached. */
    publishOrHold,
    /** Holds `entry` behind the held frames of its topic, if it has any (`false`: it goes its way). */
    holdBehind: (entry: Held) => heldTopics.size > 0 && heldTopics.has(entry.topic) && hold(entry),
    /** What was held, in publish order (emptied). */
    takeHeld() {
      const sending = held.sort((first, second) => first.order - second.order)
      held = []
      heldBytes = 0
      heldTopics.clear()
      return sending
    },
  }
}
