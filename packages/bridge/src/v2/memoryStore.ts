import type { RelayStore, RelayStoreContext, RelayStoreLimits, StoredMessage, SweepResult } from './store.js'

// Messages one sweep slice looks at: a few hundred microseconds, so a delivery never waits on housekeeping.
const SWEEP_SLICE_MESSAGES = 2_000

// `topic`: the first message's topic string, which every later message of the topic shares.
type Entry = { topic: string; messages: StoredMessage[]; bytes: number }

const hasAcked = ({ acked }: StoredMessage, clientId: string) =>
  acked === clientId || (typeof acked === 'object' && acked.has(clientId))

/**
 * The v2 relay's mailbox in memory, for one node: a list per topic in publish order, bounded per topic, per address
 * and in total. Every method answers synchronously.
 *
 * @example
 * const relay = createRelay({ store: createMemoryRelayStore() }) // the default
 */
export function createMemoryRelayStore(): RelayStore {
  const topics = new Map<string, Entry>()
  // Bytes kept per owner (address key), in a record so that a publish looks its owner up once.
  const owners = new Map<string, { bytes: number }>()
  let limits: RelayStoreLimits | undefined
  let dropped: (count: number) => void = () => {}
  let totalBytes = 0
  let totalMessages = 0
  // Where the running sweep pass is; Map iterators tolerate deletes while they run.
  let cursor: Iterator<[string, Entry]> | undefined

  const forget = (message: StoredMessage) => {
    totalBytes -= message.bytes
    totalMessages--
    const owner = owners.get(message.owner)
    if (!owner) return
    owner.bytes -= message.bytes
    if (owner.bytes <= 0) owners.delete(message.owner)
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
      let owner = owners.get(message.owner)
      if ((owner?.bytes ?? 0) + message.bytes > maxBytesPerAddress) return 'address'
      let entry = topics.get(message.topic)
      if (!entry) {
        entry = { topic: message.topic, messages: [], bytes: 0 }
        topics.set(message.topic, entry)
      }
      // Each publish parsed a copy of the topic; kept for the ttl, the copies would cost ~80 bytes a message.
      message.topic = entry.topic
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
      if (drop > 0) {
        dropped(drop)
        // What was dropped may have emptied the owner's record, and forget() took it away.
        owner = owners.get(message.owner)
      }
      if (totalBytes + message.bytes > maxTotalBytes) {
        if (entry.messages.length === 0) topics.delete(message.topic)
        return 'total'
      }
      entry.messages.push(message)
      entry.bytes += message.bytes
      totalBytes += message.bytes
      totalMessages++
      if (!owner) {
        owner = { bytes: 0 }
        owners.set(message.owner, owner)
      }
      owner.bytes += message.bytes
      return undefined
    },
    pending(topic, clientId, now) {
      const entry = topics.get(topic)
      if (!entry) return []
      return entry.messages.filter(
        (message) => message.expiresAt > now && message.from !== clientId && !hasAcked(message, clientId),
      )
    },
    ack(message, clientId) {
      const { acked } = message
      if (acked === undefined) message.acked = clientId
      else if (typeof acked !== 'string') acked.add(clientId)
      else if (acked !== clientId) message.acked = new Set([acked, clientId])
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
