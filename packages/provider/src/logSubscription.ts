import { RpcError } from '@pairlink/protocol'
import type { Block } from './blockTracker.js'
import type { RequestArguments } from './httpConnection.js'

/** A log as `eth_getLogs` returns it; `removed: true` when a reorg took its block off the chain. */
export type Log = {
  address: string
  topics: string[]
  data: string
  blockNumber: string
  blockHash: string
  transactionHash: string
  transactionIndex: string
  logIndex: string
  removed: boolean
  [field: string]: unknown
}

/** What an `eth_subscribe('logs', filter)` follows: `eth_getLogs`'s `address` and `topics` (null and OR-arrays). */
export type LogFilter = {
  address?: string | string[] | undefined
  topics?: (string | string[] | null)[] | undefined
}

/** Parameters of {@link createLogSubscriptions}. */
export type LogSubscriptionsParameters = {
  /** Sends a JSON-RPC call to the node. */
  request(args: RequestArguments): Promise<unknown>
  /** Called once per log, in chain order (then, after a reorg, once per removed log with `removed: true`). */
  onLog(subscription: string, log: Log): void
  /**
   * Most blocks one poll fetches logs for: after a longer gap (a laptop waking up) the older blocks are skipped.
   * @default 1000
   */
  maxRange?: number | undefined
  /**
   * How many recent blocks' hashes and logs are kept to recognise a reorg and mark the logs it removed.
   * @default 64
   */
  reorgDepth?: number | undefined
}

/** Return type of {@link createLogSubscriptions}. */
export type LogSubscriptions = {
  /** Starts a subscription with the block after `latest` (else the next block seen). Throws -32602 for a bad filter. */
  add(id: string, filter: unknown, latest: Block | undefined): void
  /** Ends a subscription; whether it existed. */
  delete(id: string): boolean
  /** Ends every subscription. */
  clear(): void
  /** Forgets the chain (after a switch): each subscription goes on with the new chain's next block. */
  reset(): void
  /** Takes each new block of the tracker, in order. */
  onBlock(block: Block): void
  /** Fetches and delivers the logs of the blocks seen since the last flush (one `eth_getLogs` per subscription). */
  flush(): Promise<void>
  readonly size: number
}

type Subscription = {
  filter: LogFilter
  start: number | undefined
  next: number | undefined
  /** Blocks per `eth_getLogs`: halved each time the node refuses a range (many cap it). */
  span: number
  /** The logs delivered for the last `reorgDepth` blocks. */
  recent: Log[]
}

const hex = (n: number) => `0x${n.toString(16)}`
const HASH = /^0x[0-9a-fA-F]{64}$/
const ADDRESS = /^0x[0-9a-fA-F]{40}$/

/**
 * Serves `eth_subscribe('logs')` over a polled chain: after each poll, one `eth_getLogs` per subscription for the
 * blocks that are new since the last one (`fromBlock`–`toBlock`), every log delivered once and in order. A block whose
 * parent hash is not the one seen before means a reorg: the logs delivered for the replaced blocks come again with
 * `removed: true` (newest first), then the new chain's logs.
 *
 * @example
 * const logs = createLogSubscriptions({ request: http.request, onLog: (id, log) => console.log(id, log) })
 * logs.add('0x1', { address: token }, tracker.latestBlock)
 */
export function createLogSubscriptions(parameters: LogSubscriptionsParameters): LogSubscriptions {
  const { request, onLog } = parameters
  const maxRange = parameters.maxRange ?? 1000
  const reorgDepth = parameters.reorgDepth ?? 64
  const subscriptions = new Map<string, Subscription>()
  const hashes = new Map<number, string>()
  let head: number | undefined
  // The newest block number whose recorded hash a later block's parent hash contradicted.
  let replaced: number | undefined
  // A chain switch makes a new epoch; answers of the old one are dropped.
  let epoch = 0

  async function unwind(from: number, at: number) {
    let ancestor = from
    const found = new Map<number, string | undefined>()
    while (hashes.has(ancestor)) {
      const block = (await request({ method: 'eth_getBlockByNumber', params: [hex(ancestor), false] })) as {
        hash?: string
      } | null
      if (at !== epoch) return
      if (block?.hash === hashes.get(ancestor)) break
      found.set(ancestor, block?.hash)
      ancestor--
    }
    for (const [number, hash] of found) hash ? hashes.set(number, hash) : hashes.delete(number)
    for (const [id, subscription] of subscriptions) {
      const gone = subscription.recent.filter((log) => Number(log.blockNumber) > ancestor)
      subscription.recent = subscription.recent.filter((log) => Number(log.blockNumber) <= ancestor)
      // Undone newest first, as the chain was unwound.
      for (const log of gone.reverse()) if (subscriptions.has(id)) onLog(id, { ...log, removed: true })
      if (subscription.next !== undefined && subscription.next > ancestor + 1)
        subscription.next = Math.max(ancestor + 1, subscription.start ?? 0)
    }
  }

  async function fetchLogs(id: string, subscription: Subscription, to: number, at: number) {
    let from = subscription.next ?? to + 1
    if (to - from + 1 > maxRange) from = to - maxRange + 1
    while (from <= to) {
      const end = Math.min(to, from + subscription.span - 1)
      let logs: Log[]
      try {
        const filter = { ...subscription.filter, fromBlock: hex(from), toBlock: hex(end) }
        logs = (await request({ method: 'eth_getLogs', params: [filter] })) as Log[]
      } catch (error) {
        // The next poll asks again for the same blocks, fewer at a time: no block is skipped for a failure.
        if (end > from) subscription.span = Math.ceil((end - from + 1) / 2)
        throw error
      }
      if (at !== epoch || subscriptions.get(id) !== subscription) return
      const ordered = [...(Array.isArray(logs) ? logs : [])].sort(
        (a, b) => Number(a.blockNumber) - Number(b.blockNumber) || Number(a.logIndex) - Number(b.logIndex),
      )
      for (const log of ordered) {
        subscription.recent.push(log)
        onLog(id, log)
        if (subscriptions.get(id) !== subscription) return
      }
      subscription.next = end + 1
      from = end + 1
    }
    subscription.recent = subscription.recent.filter((log) => Number(log.blockNumber) > to - reorgDepth)
  }

  return {
    add(id, filter, latest) {
      const number = latest ? Number(latest.number) + 1 : undefined
      subscriptions.set(id, {
        filter: toFilter(filter),
        start: number,
        next: number,
        span: maxRange,
        recent: [],
      })
    },
    delete: (id) => subscriptions.delete(id),
    clear: () => subscriptions.clear(),
    reset() {
      epoch++
      hashes.clear()
      head = undefined
      replaced = undefined
      for (const subscription of subscriptions.values())
        Object.assign(subscription, { start: undefined, next: undefined, span: maxRange, recent: [] })
    },
    onBlock(block) {
      const number = Number(block.number)
      const parent = hashes.get(number - 1)
      if (parent !== undefined && parent !== block.parentHash)
        replaced = Math.max(replaced ?? number - 1, number - 1)
      hashes.set(number, block.hash)
      for (const kept of hashes.keys()) if (kept <= number - reorgDepth) hashes.delete(kept)
      head = number
      for (const subscription of subscriptions.values()) {
        subscription.start ??= number
        subscription.next ??= number
      }
    },
    async flush() {
      const at = epoch
      if (head === undefined || subscriptions.size === 0) return
      const to = head
      if (replaced !== undefined) {
        const from = replaced
        replaced = undefined
        await unwind(from, at)
      }
      for (const [id, subscription] of subscriptions) {
        if (at !== epoch) return
        await fetchLogs(id, subscription, to, at)
      }
    },
    get size() {
      return subscriptions.size
    },
  }
}

/** The `address` and `topics` of an `eth_subscribe('logs')` filter, checked (-32602); other fields are not followed. */
function toFilter(value: unknown): LogFilter {
  const invalid = (why: string) =>
    new RpcError(`Invalid params: eth_subscribe('logs') ${why}`, { code: -32602 })
  if (value === undefined || value === null) return {}
  if (typeof value !== 'object' || Array.isArray(value)) throw invalid('takes a filter object')
  const { address, topics } = value as { address?: unknown; topics?: unknown }
  const filter: LogFilter = {}
  if (address !== undefined && address !== null) {
    const list = Array.isArray(address) ? address : [address]
    if (!list.every((one) => typeof one === 'string' && ADDRESS.test(one)))
      throw invalid('address must be an address or a list of addresses')
    filter.address = address as string | string[]
  }
  if (topics !== undefined && topics !== null) {
    const topic = (one: unknown) => one === null || (typeof one === 'string' && HASH.test(one))
    const valid =
      Array.isArray(topics) &&
      topics.length <= 4 &&
      topics.every((one) => topic(one) || (Array.isArray(one) && one.every(topic)))
    if (!valid) throw invalid('topics must be up to 4 entries, each null, a 32-byte hash or a list of them')
    filter.topics = topics as LogFilter['topics']
  }
  return filter
}
