import { V1_ERRORS } from '@pairlink/protocol'
import { BLOCK_FETCH_RETRIES, BLOCK_FETCH_RETRY_DELAY_MS, BLOCK_POLLING_INTERVAL_MS } from './constants.js'
import { BlockNotFoundError } from './errors.js'
import type { RequestArguments } from './httpConnection.js'

/** How much slower polling runs while the page is hidden (`document.visibilityState === 'hidden'`). */
export const HIDDEN_POLLING_FACTOR = 4

/** A block as `eth_getBlockByNumber(…, false)` returns it (transaction hashes only). */
export type Block = {
  number: string
  hash: string
  parentHash: string
  timestamp: string
  [field: string]: unknown
}

/** Parameters of {@link createBlockTracker}. */
export type BlockTrackerParameters = {
  /** Sends a JSON-RPC call to the node (usually an {@link HttpConnection}'s `request`). */
  request(args: RequestArguments): Promise<unknown>
  /** Called once per new block, in order, never twice for the same number. */
  onBlock(block: Block): void
  /**
   * Called after each poll that found the head, once its new blocks went to `onBlock` (the provider fetches their
   * logs here). Awaited before the next poll; a failure counts as a failed poll.
   */
  onPoll?: (() => void | Promise<void>) | undefined
  /** Called for each failed poll (`Could not find block`, HTTP errors). Polling goes on, backing off. */
  onError(error: Error): void
  /**
   * Milliseconds between two polls of `eth_getBlockByNumber("latest", false)`; ×4 while the page is hidden.
   * @default 4000
   */
  pollingInterval?: number | undefined
  /**
   * How many times a block fetch that comes back empty (`null`) is retried before `Could not find block`.
   * @default 5
   */
  retries?: number | undefined
  /**
   * Milliseconds between two retries of an empty block fetch.
   * @default 1000
   */
  retryDelay?: number | undefined
  /**
   * Longest pause after failed polls, in milliseconds: each failure in a row doubles the interval up to this.
   * @default 60000
   */
  maxBackoff?: number | undefined
  /**
   * Most missing blocks fetched one by one after a jump (a laptop waking up on a fast chain); older ones are
   * skipped so one poll never turns into thousands of requests.
   * @default 100
   */
  maxBackfill?: number | undefined
}

/** Return type of {@link createBlockTracker}. */
export type BlockTracker = {
  /** Starts polling now (no-op while running). */
  start(): void
  /** Stops polling; a request in flight is let finish but its block is dropped. */
  stop(): void
  /**
   * Forgets the last block, e.g. after a chain switch: the next poll's block is new whatever its number. While
   * running, polls again at once and drops the answer of a poll in flight.
   */
  reset(): void
  /** Whether polling is running. */
  readonly running: boolean
  /** The newest block seen, if any. */
  readonly latestBlock: Block | undefined
}

/**
 * Follows the chain's head by polling `eth_getBlockByNumber("latest", false)` (reference §7.3, one request per
 * poll where v1 needed two). A jump of several blocks fetches the missing ones by number, in order; an empty
 * answer is retried 5 times, 1 s apart, then reported as `Could not find block`; failures back off; polling
 * slows ×4 while a browser page is hidden and polls at once when it shows again.
 *
 * @example
 * const tracker = createBlockTracker({ request: http.request, onBlock: (b) => console.log(b.number), onError })
 * tracker.start()
 */
export function createBlockTracker(parameters: BlockTrackerParameters): BlockTracker {
  const { request, onBlock, onError } = parameters
  const interval = parameters.pollingInterval ?? BLOCK_POLLING_INTERVAL_MS
  const retries = parameters.retries ?? BLOCK_FETCH_RETRIES
  const retryDelay = parameters.retryDelay ?? BLOCK_FETCH_RETRY_DELAY_MS
  const maxBackoff = parameters.maxBackoff ?? 60_000
  const maxBackfill = parameters.maxBackfill ?? 100

  // Each start() begins a new generation; a loop whose generation is stale ends at its next step.
  let generation = 0
  let running = false
  let last: number | undefined
  let latestBlock: Block | undefined
  let wake: (() => void) | undefined

  const doc = (globalThis as { document?: Document }).document
  const hidden = () => doc?.visibilityState === 'hidden'
  const onVisibility = () => {
    if (!hidden()) wake?.()
  }

  const sleep = (ms: number) =>
    new Promise<void>((resolve) => {
      const done = () => {
        clearTimeout(timer)
        wake = undefined
        resolve()
      }
      const timer = setTimeout(done, ms)
      wake = done
    })

  async function fetchBlock(tag: string, gen: number): Promise<Block | undefined> {
    for (let attempt = 0; attempt <= retries; attempt++) {
      if (attempt > 0) await sleep(retryDelay)
      if (gen !== generation) return undefined
      const block = await request({ method: 'eth_getBlockByNumber', params: [tag, false] })
      if (gen !== generation) return undefined
      if (isBlock(block)) return block
    }
    throw new BlockNotFoundError(
      V1_ERRORS.COULD_NOT_FIND_BLOCK,
      `eth_getBlockByNumber(${tag}) was empty ${retries + 1} times`,
    )
  }

  function emit(block: Block) {
    const number = Number(block.number)
    if (last !== undefined && number <= last) return
    last = number
    latestBlock = block
    onBlock(block)
  }

  async function poll(gen: number) {
    const latest = await fetchBlock('latest', gen)
    if (!latest) return
    const number = Number(latest.number)
    if (last !== undefined && number > last + 1) {
      for (let n = Math.max(last + 1, number - maxBackfill); n < number; n++) {
        const block = await fetchBlock(`0x${n.toString(16)}`, gen)
        if (!block) return
        emit(block)
      }
    }
    emit(latest)
  }

  async function loop(gen: number) {
    let failures = 0
    while (gen === generation) {
      try {
        await poll(gen)
        if (gen === generation) await parameters.onPoll?.()
        failures = 0
      } catch (error) {
        if (gen !== generation) return
        failures++
        onError(error as Error)
      }
      if (gen !== generation) return
      const base = hidden() ? interval * HIDDEN_POLLING_FACTOR : interval
      await sleep(failures ? Math.min(base * 2 ** failures, Math.max(maxBackoff, base)) : base)
    }
  }

  return {
    start() {
      if (running) return
      running = true
      doc?.addEventListener?.('visibilitychange', onVisibility)
      void loop(++generation)
    },
    stop() {
      if (!running) return
      running = false
      generation++
      doc?.removeEventListener?.('visibilitychange', onVisibility)
      wake?.()
    },
    reset() {
      last = undefined
      latestBlock = undefined
      if (!running) return
      // A poll in flight asked the old chain: a new generation drops its answer and polls the new one now.
      generation++
      wake?.()
      void loop(generation)
    },
    get running() {
      return running
    },
    get latestBlock() {
      return latestBlock
    },
  }
}

function isBlock(value: unknown): value is Block {
  return typeof value === 'object' && value !== null && typeof (value as Block).number === 'string'
}
