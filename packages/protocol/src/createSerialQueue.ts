/** Return type of {@link createSerialQueue}. */
export type SerialQueue = {
  /**
   * Runs `task` once every task added before it has settled, whether it succeeded or failed; the promise settles as
   * the task does. A failed task rejects its own promise only: the next one starts all the same.
   */
  add<result>(task: () => result | PromiseLike<result>): Promise<result>
  /** Resolves once every task added so far has settled (never rejects). */
  idle(): Promise<void>
}

/**
 * A queue of async work that runs one task at a time, in the order they were added: for work whose steps must not
 * interleave (read-modify-write of a file, statements of a transaction on one connection, messages handled in order).
 *
 * @example
 * const queue = createSerialQueue()
 * await Promise.all([queue.add(() => write('a')), queue.add(() => write('b'))]) // 'a' is written before 'b' starts
 */
export function createSerialQueue(): SerialQueue {
  // Settles as the last task did, never rejecting (its value, if any, is nobody's: `idle` says `void`).
  let tail: Promise<unknown> = Promise.resolve()
  return {
    add(task) {
      const run = tail.then(() => task())
      tail = run.catch(() => {})
      return run
    },
    idle: () => tail as Promise<void>,
  }
}
