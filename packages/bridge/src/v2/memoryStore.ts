import type { RelayStore, RelayStoreContext, RelayStoreLimits, StoredMessage, SweepResult } from './store.js'

// Messages one sweep slice looks at: a few hundred microseconds, so a delivery never waits on housekeeping.
const SWEEP_SLICE_MESSAGES = 2_000

type Entry = { messages: StoredMessage[]; bytes: number }

/**
 * The v2 relay's mailbox in memory, for one node: a list per topic in publish order, bounded per topic, per address
 * and in total. Every method answers synchronously.
 *
 * @example
 * const relay = createRelay({ store: createMemoryRelayStore() }) // the default
 */
export function createMemoryRelayStore(): RelayStore {
  const topics = new Map<string, Entry>()
  const owners = new Map<string, number>()
  let limits: RelayStoreLimits | undefined
  let dropped: (count: number) => void = () => {}
  let totalBytes = 0
  let totalMessages = 0
  // Where the running sweep pass is; Map iterators tolerate deletes while they run.
  let cursor: Iterator<[string, Entry]> | undefined

  const forget = (message: StoredMessage) => {
    totalBytes -= message.bytes
    totalMessages--
    const left = (owners.get(message.owner) ?? 0) - message.bytes
    if (left > 0) owners.set(message.owner, left)
    else owners.delete(message.owner)
  }

  const use = () => {
    if (!limits) throw new Error('The memory relay store is used before start()')
    return limits
  }

  return {
    name: 'memory',
    start(context: RelayStoreContext) {
      limits = context.limits
      dropped = context.dropped
    },
    add(message) {
      const { maxBytesPerTopic, maxMessagesPerTopic, maxBytesPerAddress, maxTotalBytes } = use()
      if (message.bytes > maxBytesPerTopic) return 'topic'
      if ((owners.get(message.owner) ?? 0) + message.bytes > maxBytesPerAddress) return 'address'
      let entry = topics.get(message.topic)
      if (!entry) {
        entry = { messages: [], bytes: 0 }
        topics.set(message.topic, entry)
      }
      let drop = 0
      while (
        entry.messages.length > 0 &&
        (entry.messages.length >= maxMessagesPerTopic || entry.bytes + message.bytes > maxBytesPerTopic)
      ) {
        const oldest = entry.messages.shift() as StoredMessage
        entry.bytes -= oldest.bytes
        forget(oldest)
        drop++
      }
      if (drop > 0) dropped(drop)
      if (totalBytes + message.bytes > maxTotalBytes) {
        if (entry.messages.length === 0) topics.delete(message.topic)
        return 'total'
      }
      entry.messages.push(message)
      entry.bytes += message.bytes
      totalBytes += message.bytes
      totalMessages++
      owners.set(message.owner, (owners.get(message.owner) ?? 0) + message.bytes)
      return undefined
    },
    pending(topic, clientId, now) {
      const entry = topics.get(topic)
      if (!entry) return []
      return entry.messages.filter(
        (message) => message.expiresAt > now && message.from !== clientId && !message.acked.has(clientId),
      )
    },
    ack(message, clientId) {
      message.acked.add(clientId)
    },
    watch() {},
    unwatch() {},
    sweep(now): SweepResult {
      cursor ??= topics.entries()
      let expired = 0
      let looked = 0
      while (looked < SWEEP_SLICE_MESSAGES) {
        const next = cursor.next()
        if (next.done) {
          cursor = undefined
          return { expired, done: true }
        }
        const [topic, entry] = next.value
        looked += entry.messages.length
        if (!entry.messages.some((message) => message.expiresAt <= now)) continue
        const kept: StoredMessage[] = []
        for (const message of entry.messages) {
          if (message.expiresAt > now) {
            kept.push(message)
            continue
          }
          entry.bytes -= message.bytes
          forget(message)
          expired++
        }
        if (kept.length === 0) topics.delete(topic)
        else entry.messages = kept
      }
      return { expired, done: false }
    },
    size: () => ({ messages: totalMessages, bytes: totalBytes }),
    isHealthy: async () => true,
    close: async () => {},
  }
}
