/** Parameters of {@link createSweeper}. */
export type SweeperParameters<item> = {
  /** How long one pass over every item takes, in milliseconds: each item is visited once per interval. */
  intervalMs: number
  /**
   * The live collection (a `Set`, or a `Map`'s keys or entries), read afresh at the start of each pass. An item added
   * during a pass is visited in it or in the next; a removed one is not visited any more.
   */
  items(): Iterable<item> & { readonly size: number }
  /** Called once per item and pass. */
  visit(item: item): void
  /** Interval between two slices of a pass, in milliseconds. @default 10 */
  sliceMs?: number | undefined
}

/** Return type of {@link createSweeper}. */
export type Sweeper = {
  /** Stops the timer. */
  stop(): void
}

/**
 * Visits every item of a collection once per interval in small slices, a share of the items each `sliceMs`, instead
 * of all of them in one synchronous loop: at 10 000 sockets one loop held every delivery up for hundreds of
 * milliseconds, a slice for a few.
 *
 * @example
 * const pinger = createSweeper({ intervalMs: 10_000, items: () => peers, visit: (peer) => peer.ping() })
 */
export function createSweeper<item>(parameters: SweeperParameters<item>): Sweeper {
  const { intervalMs, visit } = parameters
  const sliceMs = Math.min(parameters.sliceMs ?? 10, intervalMs)
  let pass: Iterator<item> | undefined
  let source: { readonly size: number } = { size: 0 }
  let visited = 0
  let nextPassAt = performance.now() + intervalMs

  let timer: ReturnType<typeof setTimeout> | undefined
  let stopped = false
  // Between passes the timer sleeps until the next one is due: an idle collection costs one wake-up per interval.
  const schedule = (ms: number) => {
    if (stopped) return
    timer = setTimeout(slice, ms)
    timer.unref?.()
  }

  const slice = () => {
    try {
      sliceOnce()
    } finally {
      schedule(pass ? sliceMs : Math.max(0, nextPassAt - performance.now()))
    }
  }
  const sliceOnce = () => {
    const now = performance.now()
    if (!pass) {
      if (now < nextPassAt) return
      // After a stall, the next pass is an interval from now rather than at once.
      nextPassAt = Math.max(nextPassAt + intervalMs, now + intervalMs - sliceMs)
      const items = parameters.items()
      source = items
      pass = items[Symbol.iterator]()
      visited = 0
    }
    // What is left of the pass, over the slices left before the next one is due (all of it once that is overdue, so
    // a late timer delays items but never skips them).
    const slicesLeft = Math.max(1, Math.floor((nextPassAt - now) / sliceMs))
    const count = Math.ceil(Math.max(1, source.size - visited) / slicesLeft)
    for (let i = 0; i < count; i++) {
      const next = pass.next()
      if (next.done) {
        pass = undefined
        return
      }
      visited++
      visit(next.value)
    }
  }

  schedule(intervalMs)
  return {
    stop() {
      stopped = true
      clearTimeout(timer)
    },
  }
}
