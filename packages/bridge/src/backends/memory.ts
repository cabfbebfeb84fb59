import { DEFAULT_MAX_TOTAL_QUEUED_BYTES, DEFAULT_SWEEP_INTERVAL_MS } from '../constants.js'
import { InvalidBridgeOptionsError } from '../errors.js'
import type { Backend, BackendContext } from './backend.js'

/** Parameters of {@link createMemoryBackend}. */
export type CreateMemoryBackendParameters = {
  /**
   * Bytes queued over all topics; beyond it the topic queued longest ago loses its oldest message first, so
   * flooding many topics cannot exhaust memory.
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

type Entry = { frame: string; bytes: number; expiresAt: number }
type Queue = { entries: Entry[]; bytes: number }

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
  // url → expiry time; Map order is registration order, so the first entry is the oldest.
  const hooks = new Map<string, Map<string, number>>()
  let totalBytes = 0
  let context: BackendContext | undefined
  let timer: ReturnType<typeof setInterval> | undefined

  const ctx = () => {
    if (!context) throw new InvalidBridgeOptionsError('The memory backend is used before start()')
    return context
  }

  const removeHead = (topic: string, queue: Queue) => {
    const entry = queue.entries.shift()
    if (!entry) return
    queue.bytes -= entry.bytes
    totalBytes -= entry.bytes
    if (queue.entries.length === 0) queues.delete(topic)
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

  const sweep = () => {
    const time = now()
    for (const [topic, queue] of queues) purgeExpired(topic, queue, time)
    for (const [topic, urls] of hooks) {
      for (const [url, expiresAt] of urls) if (expiresAt <= time) urls.delete(url)
      if (urls.size === 0) hooks.delete(topic)
    }
  }

  const enqueue = (topic: string, frame: string, bytes: number) => {
    const { counts, queue: limits } = ctx()
    if (bytes > limits.maxQueuedBytes) {
      counts.dropped++
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
    queue.entries.push({ frame, bytes, expiresAt: time + limits.ttlSeconds * 1000 })
    queue.bytes += bytes
    totalBytes += bytes
    counts.queued++
    while (queue.entries.length > limits.maxQueueLength || queue.bytes > limits.maxQueuedBytes) {
      removeHead(topic, queue)
      counts.dropped++
    }
    while (totalBytes > maxTotalBytes) {
      const oldest = queues.entries().next().value
      if (!oldest) break
      removeHead(oldest[0], oldest[1])
      counts.dropped++
    }
  }

  return {
    name: 'memory',
    async start(value) {
      context = value
      timer = setInterval(sweep, sweepIntervalMs)
      timer.unref?.()
    },
    subscribe() {},
    unsubscribe() {},
    publish(topic, frame, bytes, delivered) {
      if (delivered === 0) enqueue(topic, frame, bytes)
    },
    enqueue,
    drain(topic) {
      const queue = queues.get(topic)
      if (!queue) return []
      purgeExpired(topic, queue, now())
      queues.delete(topic)
      totalBytes -= queue.bytes
      return queue.entries.map((entry) => entry.frame)
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
      if (timer) clearInterval(timer)
      timer = undefined
    },
  }
}
