import { DEFAULT_MAX_TOTAL_QUEUED_BYTES, DEFAULT_SWEEP_INTERVAL_MS } from '../constants.js'
import { InvalidBridgeOptionsError } from '../errors.js'
import { createSweeper, type Sweeper } from '../sweeper.js'
import type { Backend, BackendContext } from './backend.js'

/** Parameters of {@link createMemoryBackend}. */
export type CreateMemoryBackendParameters = {
  /**
   * Bytes queued over all topics; beyond it the owner (address) with the most queued bytes loses its oldest
   * messages first, so one address flooding many topics exhausts neither memory nor anyone else's queue.
   * @default 268435456 (256 MiB)
   */
  maxTotalQueuedBytes?: number | undefined
  /**
   * Topics with webhooks kept at once; beyond it the topic registered longest ago is forgotten.
   * @default 100000
   */
  maxWebhookTopics?: number | undefined
  /**
   * Interval between two sweeps of expired messages and webhooks, in milliseconds.
   * @default 60000
   */
  sweepIntervalMs?: number | undefined
  /** Clock in milliseconds, for tests. @default Date.now */
  now?: (() => number) | undefined
}

type Entry = { topic: string; frame: string; bytes: number; expiresAt: number; owner: Owner; gone: boolean }
type Queue = { entries: Entry[]; bytes: number }
/** What one address has queued: its entries oldest first (some already gone, compacted lazily). */
type Owner = { key: string; bytes: number; live: number; entries: Entry[] }

// Over the total cap, evict down to this share of it, so one scan for the largest owner serves many messages.
const LOW_WATER = 0.9

/**
 * The default backend: every queue and webhook in this process, looked up by topic in a `Map` (O(1) however many
 * sockets are idle). Messages are lost when the process stops; use {@link createRedisBackend} to keep them.
 *
 * @example
 * const bridge = createBridge({ backend: createMemoryBackend({ maxTotalQueuedBytes: 64 * 1024 * 1024 }) })
 */
export function createMemoryBackend(parameters: CreateMemoryBackendParameters = {}): Backend {
  const maxTotalBytes = parameters.maxTotalQueuedBytes ?? DEFAULT_MAX_TOTAL_QUEUED_BYTES
  const maxWebhookTopics = parameters.maxWebhookTopics ?? 100_000
  const sweepIntervalMs = parameters.sweepIntervalMs ?? DEFAULT_SWEEP_INTERVAL_MS
  const now = parameters.now ?? Date.now
  for (const [name, value] of Object.entries({ maxTotalBytes, maxWebhookTopics, sweepIntervalMs }))
    if (!Number.isFinite(value) || value <= 0)
      throw new InvalidBridgeOptionsError(`Invalid memory backend option ${name}: ${value}`)

  const queues = new Map<string, Queue>()
  const owners = new Map<string, Owner>()
  // url → expiry time; Map order is registration order, so the first entry is the oldest.
  const hooks = new Map<string, Map<string, number>>()
  let totalBytes = 0
  let context: BackendContext | undefined
  let sweepers: Sweeper[] = []

  const ctx = () => {
    if (!context) throw new InvalidBridgeOptionsError('The memory backend is used before start()')
    return context
  }

  // An entry left its topic queue (drained, expired, dropped): take it off its owner's and the total budget.
  const forget = (entry: Entry) => {
    entry.gone = true
    totalBytes -= entry.bytes
    const owner = entry.owner
    owner.bytes -= entry.bytes
    if (--owner.live === 0) owners.delete(owner.key)
    else if (owner.entries.length > 2 * owner.live + 16) owner.entries = owner.entries.filter((e) => !e.gone)
  }

  const removeHead = (topic: string, queue: Queue) => {
    const entry = queue.entries.shift()
    if (!entry) return
    queue.bytes -= entry.bytes
    forget(entry)
    if (queue.entries.length === 0) queues.delete(topic)
  }

  const evictOldestOf = (owner: Owner) => {
    let entry = owner.entries.shift()
    while (entry?.gone) entry = owner.entries.shift()
    if (!entry) return
    const queue = queues.get(entry.topic)
    if (queue) {
      // A topic queue holds at most maxQueueLength entries, so this search is short.
      queue.entries.splice(queue.entries.indexOf(entry), 1)
      queue.bytes -= entry.bytes
      if (queue.entries.length === 0) queues.delete(entry.topic)
    }
    forget(entry)
  }

  // One sort per crossing of the cap (then 10 % of it is free again), so the work stays bounded however many
  // addresses queue: the largest gives back down to the next largest, then that one down to the one after, and so
  // on. Only when every address queues about as much (no abuser) does the topic queued longest ago pay instead.
  const evictLargest = () => {
    const { counts } = ctx()
    const low = maxTotalBytes * LOW_WATER
    const ranked = [...owners.values()].sort((a, b) => b.bytes - a.bytes)
    for (let i = 0; i + 1 < ranked.length && totalBytes > low; i++) {
      const owner = ranked[i] as Owner
      const next = (ranked[i + 1] as Owner).bytes
      while (owner.live > 0 && owner.bytes > next && totalBytes > low) {
        evictOldestOf(owner)
        counts.dropped++
      }
    }
    while (totalBytes > low) {
      const oldest = queues.entries().next().value
      if (!oldest) break
      removeHead(oldest[0], oldest[1])
      counts.dropped++
    }
  }

  const purgeExpired = (topic: string, queue: Queue, time: number) => {
    const { counts } = ctx()
    let head = queue.entries[0]
    while (head && head.expiresAt <= time) {
      removeHead(topic, queue)
      counts.expired++
      head = queue.entries[0]
    }
  }

  const purgeHooks = ([topic, urls]: [string, Map<string, number>]) => {
    const time = now()
    for (const [url, expiresAt] of urls) if (expiresAt <= time) urls.delete(url)
    if (urls.size === 0) hooks.delete(topic)
  }

  const enqueue = (topic: string, frame: string, bytes: number, ownerKey: string) => {
    const { counts, queue: limits } = ctx()
    if (bytes > limits.maxQueuedBytes) {
      counts.dropped++
      return
    }
    let owner = owners.get(ownerKey)
    // An address over its budget loses its new message, never someone else's.
    if ((owner?.bytes ?? 0) + bytes > limits.maxQueuedBytesPerOwner) {
      counts.dropped++
      counts.refusedQueuedBytesPerIp++
      return
    }
    const time = now()
    let queue = queues.get(topic)
    if (queue) purgeExpired(topic, queue, time)
    queue = queues.get(topic)
    if (!queue) {
      queue = { entries: [], bytes: 0 }
      queues.set(topic, queue)
    }
    owner = owners.get(ownerKey)
    if (!owner) {
      owner = { key: ownerKey, bytes: 0, live: 0, entries: [] }
      owners.set(ownerKey, owner)
    }
    const entry: Entry = {
      topic,
      frame,
      bytes,
      expiresAt: time + limits.ttlSeconds * 1000,
      owner,
      gone: false,
    }
    queue.entries.push(entry)
    queue.bytes += bytes
    owner.entries.push(entry)
    owner.bytes += bytes
    owner.live++
    totalBytes += bytes
    counts.queued++
    while (queue.entries.length > limits.maxQueueLength || queue.bytes > limits.maxQueuedBytes) {
      removeHead(topic, queue)
      counts.dropped++
    }
    if (totalBytes > maxTotalBytes) evictLargest()
  }

  return {
    name: 'memory',
    async start(value) {
      context = value
      // Expired messages and webhooks are forgotten a slice of the topics at a time, never in one long loop.
      sweepers = [
        createSweeper({
          intervalMs: sweepIntervalMs,
          items: () => queues,
          visit: ([topic, queue]) => purgeExpired(topic, queue, now()),
        }),
        createSweeper({ intervalMs: sweepIntervalMs, items: () => hooks, visit: purgeHooks }),
      ]
    },
    subscribe() {},
    unsubscribe() {},
    publish(topic, frame, bytes, delivered, owner) {
      if (delivered === 0) enqueue(topic, frame, bytes, owner)
    },
    enqueue,
    drain(topic) {
      const queue = queues.get(topic)
      if (!queue) return []
      purgeExpired(topic, queue, now())
      queues.delete(topic)
      const frames: string[] = []
      for (const entry of queue.entries) {
        forget(entry)
        frames.push(entry.frame)
      }
      return frames
    },
    addWebhook(topic, url) {
      const { webhooks } = ctx()
      let urls = hooks.get(topic)
      if (urls) hooks.delete(topic)
      else urls = new Map()
      // Re-inserting moves the topic and the URL to the end: they become the newest.
      hooks.set(topic, urls)
      urls.delete(url)
      urls.set(url, now() + webhooks.ttlSeconds * 1000)
      for (const oldest of urls.keys()) {
        if (urls.size <= webhooks.maxPerTopic) break
        urls.delete(oldest)
      }
      for (const oldest of hooks.keys()) {
        if (hooks.size <= maxWebhookTopics) break
        hooks.delete(oldest)
      }
    },
    webhooks(topic) {
      const urls = hooks.get(topic)
      if (!urls) return []
      const time = now()
      const live: string[] = []
      for (const [url, expiresAt] of urls) if (expiresAt > time) live.push(url)
      return live
    },
    async isHealthy() {
      return true
    },
    async close() {
      for (const sweeper of sweepers) sweeper.stop()
      sweepers = []
    },
  }
}
