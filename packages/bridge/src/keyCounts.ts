/**
 * A count per key (topic, address) that forgets a key once its count falls to zero, so that keys come and go without
 * the map growing: what the bridge keeps per address (connections, subscriptions, waiting bytes) and per topic.
 */
export type KeyCounts = {
  /** The key's count (0 when absent). */
  get(key: string): number
  /** Whether the key's count is above zero. */
  has(key: string): boolean
  /** Adds `amount` (may be negative) to the key's count; returns the new count, the key forgotten at zero or below. */
  add(key: string, amount?: number): number
}

/** An empty {@link KeyCounts}. */
export function createKeyCounts(): KeyCounts {
  const counts = new Map<string, number>()
  return {
    get: (key) => counts.get(key) ?? 0,
    has: (key) => counts.has(key),
    add(key, amount = 1) {
      const count = (counts.get(key) ?? 0) + amount
      if (count > 0) counts.set(key, count)
      else counts.delete(key)
      return count
    },
  }
}
