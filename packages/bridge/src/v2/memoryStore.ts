/** One published message kept for its `ttl` (the v2 mailbox). */
export type StoredMessage = {
  topic: string
  message: string
  tag: number
  /** Milliseconds. */
  publishedAt: number
  /** Milliseconds. */
  expiresAt: number
  /** Client id (`iss`) of the publisher: never pushed back to it. */
  from: string
  attestation?: string | undefined
  /** What it costs the store: the message's and topic's lengths. */
  bytes: number
  /** Client ids that acknowledged it (a push ack or a fetch): not pushed to them again. */
  acked: Set<string>
}

/** Limits of {@link createMemoryStore}. */
export type MemoryStoreLimits = {
  /** Messages kept per topic; the oldest is dropped beyond. */
  maxMessagesPerTopic: number
  /** Bytes kept per topic; the oldest are dropped beyond. */
  maxBytesPerTopic: number
  /** Bytes kept over all topics; a message beyond is refused. */
  maxTotalBytes: number
}

/** Return type of {@link createMemoryStore}. */
export type MemoryStore = {
  /** Keeps `message`; `false` when the total cap refuses it. Calls `onDrop` for each older message dropped. */
  add(message: StoredMessage): boolean
  /** Unexpired messages of `topic`, oldest first, not published by `clientId` and not acknowledged by it. */
  pending(topic: string, clientId: string, now: number): StoredMessage[]
  /** Drops expired messages; returns how many. */
  sweep(now: number): number
  /** Messages and bytes kept. */
  size(): { messages: number; bytes: number }
}

/**
 * The v2 relay's mailbox in memory: a list per topic in publish order, bounded per topic and in total.
 *
 * @example
 * const store = createMemoryStore({ maxMessagesPerTopic: 1000, maxBytesPerTopic: 8 << 20, maxTotalBytes: 256 << 20 })
 */
export function createMemoryStore(limits: MemoryStoreLimits, onDrop: () => void = () => {}): MemoryStore {
  const topics = new Map<string, { messages: StoredMessage[]; bytes: number }>()
  let totalBytes = 0
  let totalMessages = 0

  const dropOldest = (entry: { messages: StoredMessage[]; bytes: number }) => {
    const dropped = entry.messages.shift()
    if (!dropped) return
    entry.bytes -= dropped.bytes
    totalBytes -= dropped.bytes
    totalMessages--
  }

  return {
    add(message) {
      if (message.bytes > limits.maxBytesPerTopic) return false
      let entry = topics.get(message.topic)
      if (!entry) {
        entry = { messages: [], bytes: 0 }
        topics.set(message.topic, entry)
      }
      while (
        entry.messages.length > 0 &&
        (entry.messages.length >= limits.maxMessagesPerTopic ||
          entry.bytes + message.bytes > limits.maxBytesPerTopic)
      ) {
        dropOldest(entry)
        onDrop()
      }
      if (totalBytes + message.bytes > limits.maxTotalBytes) {
        if (entry.messages.length === 0) topics.delete(message.topic)
        return false
      }
      entry.messages.push(message)
      entry.bytes += message.bytes
      totalBytes += message.bytes
      totalMessages++
      return true
    },
    pending(topic, clientId, now) {
      const entry = topics.get(topic)
      if (!entry) return []
      return entry.messages.filter(
        (message) => message.expiresAt > now && message.from !== clientId && !message.acked.has(clientId),
      )
    },
    sweep(now) {
      let expired = 0
      for (const [topic, entry] of topics) {
        const kept = entry.messages.filter((message) => message.expiresAt > now)
        if (kept.length === entry.messages.length) continue
        for (const message of entry.messages) {
          if (message.expiresAt > now) continue
          entry.bytes -= message.bytes
          totalBytes -= message.bytes
          totalMessages--
          expired++
        }
        if (kept.length === 0) topics.delete(topic)
        else entry.messages = kept
      }
      return expired
    },
    size: () => ({ messages: totalMessages, bytes: totalBytes }),
  }
}
