// Messages a Redis store node holds in memory before it writes them (`writeDelayMs`): in publish order, each released
// (handed to `release`, which writes it) when due, when its topic must be written now, or all at once; one acked
// meanwhile is dropped and never written.

import { createKeyCounts } from '../keyCounts.js'

/** One message held back: `due` (ms) while held; 0 once released; -1 once dropped (acked first). */
export type Held = { due: number; readonly message: { readonly topic: string } }

/** Return type of {@link createHeldBack}. */
export type HeldBack<T extends Held> = {
  /** Holds `item` until `due` (ms). */
  hold(item: T, due: number): void
  /** Releases what is held of `topic` (every topic when `undefined`), in publish order. */
  release(topic?: string): void
  /** Drops `item` (acked before it was written): it is never released. */
  drop(item: T): void
  /** Stops the timer (what is held stays: `release()` it first). */
  stop(): void
}

/** A queue of held messages with one timer for the earliest due. */
export function createHeldBack<T extends Held>(release: (item: T) => void): HeldBack<T> {
  // In publish order, which is due order (a Set iterates in insertion order).
  const items = new Set<T>()
  const perTopic = createKeyCounts()
  let timer: ReturnType<typeof setTimeout> | undefined

  const forget = (item: T) => {
    items.delete(item)
    perTopic.add(item.message.topic, -1)
  }
  const letGo = (item: T) => {
    forget(item)
    item.due = 0
    release(item)
  }
  const arm = () => {
    if (timer) return
    const first = items.values().next()
    if (!first.done) timer = setTimeout(releaseDue, Math.max(0, first.value.due - Date.now()))
  }
  const releaseDue = () => {
    timer = undefined
    const now = Date.now()
    for (const item of items) {
      if (item.due > now) break
      letGo(item)
    }
    arm()
  }

  return {
    hold(item, due) {
      item.due = due
      items.add(item)
      perTopic.add(item.message.topic)
      arm()
    },
    release(topic) {
      if (topic !== undefined && !perTopic.has(topic)) return
      for (const item of items) if (topic === undefined || item.message.topic === topic) letGo(item)
    },
    drop(item) {
      if (item.due <= 0) return
      forget(item)
      item.due = -1
    },
    stop() {
      if (timer) clearTimeout(timer)
      timer = undefined
    },
  }
}
