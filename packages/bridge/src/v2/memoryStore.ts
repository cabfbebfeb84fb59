import { networkKey } from '../addressKey.js'
import {
  ADDRESS_SHARE_DIVISOR,
  MAX_ACKS_PER_MESSAGE,
  NETWORK_SHARE_DIVISOR,
  type RelayStore,
  type RelayStoreContext,
  type RelayStoreLimits,
  type StoredMessage,
  type SweepResult,
} from './store.js'

// Messages one sweep slice looks at: a few hundred microseconds, so a delivery never waits on housekeeping.
const SWEEP_SLICE_MESSAGES = 2_000

// `topic`: the first message's topic string, which every later message of the topic shares.
type Entry = { topic: string; messages: StoredMessage[]; bytes: number }
// Owed bytes of one address, and the record of its network (shared by the addresses of the network).
type Budget = { bytes: number }
type Owner = Budget & { network: Budget; networkKey: string }

const hasAcked = ({ acked }: StoredMessage, clientId: string) =>
  acked === clientId || (typeof acked === 'object' && acked.has(clientId))

/**
 * The v2 relay's mailbox in memory, for one node: a list per topic in publish order, bounded per topic, per address
 * and network (owed bytes, fair shares of what is free) and in total (delivered messages evicted first). Every method
 * answers synchronously.
 *
 * @example
 * const relay = createRelay({ store: createMemoryRelayStore() }) // the default
 */
export function createMemoryRelayStore(): RelayStore {
  const topics = new Map<string, Entry>()
  // Owed bytes per owner (address key) and per network, in records so that a publish looks its owner up once.
  const owners = new Map<string, Owner>()
  const networks = new Map<string, Budget>()
  // Delivered messages in the order of their first ack: the oldest is evicted first (a Set: ordered, O(1) delete).
  const delivered = new Set<StoredMessage>()
  let limits: RelayStoreLimits | undefined
  let dropped: (count: number) => void = () => {}
  let totalBytes = 0
  let owedBytes = 0
  let totalMessages = 0
  // Where the running sweep pass is; Map iterators tolerate deletes while they run.
  let cursor: Iterator<[string, Entry]> | undefined

  // Takes an owed message's bytes off its owner's and network's budgets (delivered, or gone).
  const settle = (message: StoredMessage) => {
    owedBytes -= message.bytes
    const owner = owners.get(message.owner)
    if (!owner) return
    owner.bytes -= message.bytes
    owner.network.bytes -= message.bytes
    if (owner.network.bytes <= 0) networks.delete(owner.networkKey)
    if (owner.bytes <= 0) owners.delete(message.owner)
  }

  // The message left its topic's list (dropped, evicted or expired): its bytes leave every budget.
  const forget = (message: StoredMessage) => {
    totalBytes -= message.bytes
    totalMessages--
    if (message.state === 'delivered') delivered.delete(message)
    else settle(message)
    message.state = 'gone'
  }

  // Evicts delivered messages, oldest delivered first, until `bytes` more fit in the total; false when they cannot.
  const makeRoom = (bytes: number, maxTotalBytes: number) => {
    let evicted = 0
    for (const message of delivered) {
      if (totalBytes + bytes <= maxTotalBytes) break
      const entry = topics.get(message.topic) as Entry
      // Delivered messages are the topic's older ones as a rule: found near the head of its list.
      entry.messages.splice(entry.messages.indexOf(message), 1)
      entry.bytes -= message.bytes
      if (entry.messages.length === 0) topics.delete(message.topic)
      forget(message)
      evicted++
    }
    if (evicted > 0) dropped(evicted)
    return totalBytes + bytes <= maxTotalBytes
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
      const {
        maxBytesPerTopic,
        maxMessagesPerTopic,
        maxBytesPerAddress,
        maxBytesPerNetwork,
        maxTotalBytes,
        addressShareDivisor = ADDRESS_SHARE_DIVISOR,
        networkShareDivisor = NETWORK_SHARE_DIVISOR,
      } = use()
      if (message.bytes > maxBytesPerTopic) return 'topic'
      // Fair shares of what owed messages leave free (the same arithmetic as the Redis store's, in doubles).
      const free = maxTotalBytes - owedBytes
      const owner = owners.get(message.owner)
      if ((owner?.bytes ?? 0) + message.bytes > Math.min(maxBytesPerAddress, free / addressShareDivisor))
        return 'address'
      const network = owner?.network ?? networks.get(networkKey(message.owner))
      if ((network?.bytes ?? 0) + message.bytes > Math.min(maxBytesPerNetwork, free / networkShareDivisor))
        return 'network'
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
      if (drop > 0) dropped(drop)
      if (totalBytes + message.bytes > maxTotalBytes && !makeRoom(message.bytes, maxTotalBytes)) {
        if (entry.messages.length === 0) topics.delete(message.topic)
        return 'total'
      }
      // Eviction may have emptied the topic and taken its entry away.
      if (!topics.has(message.topic)) topics.set(message.topic, entry)
      entry.messages.push(message)
      entry.bytes += message.bytes
      totalBytes += message.bytes
      owedBytes += message.bytes
      totalMessages++
      message.state = 'owed'
      // What was dropped or evicted may have emptied the owner's and network's records, and settle() took them away.
      let record = owners.get(message.owner)
      if (!record) {
        const key = networkKey(message.owner)
        let shared = networks.get(key)
        if (!shared) {
          shared = { bytes: 0 }
          networks.set(key, shared)
        }
        record = { bytes: 0, network: shared, networkKey: key }
        owners.set(message.owner, record)
      }
      record.bytes += message.bytes
      record.network.bytes += message.bytes
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
      // The first ack: delivered, its bytes off the budgets of its owner and network, evictable from now on.
      if (message.state === 'owed') {
        settle(message)
        message.state = 'delivered'
        delivered.add(message)
      }
      const { acked } = message
      if (acked === undefined) message.acked = clientId
      else if (typeof acked !== 'string') {
        if (acked.size < MAX_ACKS_PER_MESSAGE) acked.add(clientId)
      } else if (acked !== clientId) message.acked = new Set([acked, clientId])
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
