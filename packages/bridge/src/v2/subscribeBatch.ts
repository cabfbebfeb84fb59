// What the Redis relay store asks when sockets subscribe, batched per turn of the event loop: the node's registrations
// in `s:{topic}` and the reads of what topics keep. 10 000 clients subscribing at once then cost a few script calls
// per slice of topics instead of a MULTI (four commands) and a script call each, whose commands, replies and promises,
// all in flight together, held ~125 MB more RSS after them than the memory store (bench/bridge/capacityV2.mjs).

// Topics one registration or read call carries at most: about a millisecond of Redis time for idle topics.
const SUBSCRIBE_SLICE = 200

type Waiting<T> = { resolve(value: T): void; reject(error: unknown): void }

/** Parameters of {@link createSubscribeBatch}: the store's Redis calls. */
export type SubscribeBatchParameters = {
  /** Sends the turn's kept messages and acks: before the reads (same connection), so that they see them. */
  flush(): void
  /** Registers this node for `topics`. */
  register(topics: readonly string[]): Promise<unknown>
  /** The entries each read should be pushed; `args` holds topic, client id and now per read. */
  read(args: readonly (string | number)[]): Promise<string[][]>
}

/** Return type of {@link createSubscribeBatch}. */
export type SubscribeBatch = {
  /** Registers this node for `topic` at the end of the turn; resolves once Redis has it. */
  watch(topic: string): Promise<void>
  /**
   * The kept entries of `topic` that `clientId` should be pushed, read at the end of the turn after the turn's
   * registrations: a node is registered for a topic before it reads it, so a message kept meanwhile reaches it on its
   * channel (docs/relay-v2.md, "Redis").
   */
  read(topic: string, clientId: string, now: number): Promise<string[]>
}

/** Batches a Redis store's registrations and reads per turn of the event loop, in that order. */
export function createSubscribeBatch({ flush, register, read }: SubscribeBatchParameters): SubscribeBatch {
  let topics: string[] = []
  let registered: Promise<void> | undefined
  let registering: Waiting<void> | undefined
  let args: (string | number)[] = []
  let reads: Waiting<string[]>[] = []
  let scheduled = false

  const run = () => {
    scheduled = false
    flush()
    if (registering) {
      const { resolve, reject } = registering
      const calls: Promise<unknown>[] = []
      for (let i = 0; i < topics.length; i += SUBSCRIBE_SLICE)
        calls.push(register(topics.slice(i, i + SUBSCRIBE_SLICE)))
      Promise.all(calls).then(() => resolve(), reject)
    }
    for (let i = 0; i < reads.length; i += SUBSCRIBE_SLICE) {
      const waiting = reads.slice(i, i + SUBSCRIBE_SLICE)
      read(args.slice(i * 3, (i + SUBSCRIBE_SLICE) * 3)).then(
        (lists) => {
          for (let j = 0; j < waiting.length; j++) (waiting[j] as Waiting<string[]>).resolve(lists[j] ?? [])
        },
        (error: unknown) => {
          for (const one of waiting) one.reject(error)
        },
      )
    }
    topics = []
    registered = undefined
    registering = undefined
    args = []
    reads = []
  }
  const schedule = () => {
    if (scheduled) return
    scheduled = true
    setImmediate(run)
  }

  return {
    watch(topic) {
      topics.push(topic)
      schedule()
      registered ??= new Promise((resolve, reject) => {
        registering = { resolve, reject }
      })
      return registered
    },
    read(topic, clientId, now) {
      args.push(topic, clientId, now)
      schedule()
      return new Promise((resolve, reject) => {
        reads.push({ resolve, reject })
      })
    },
  }
}
