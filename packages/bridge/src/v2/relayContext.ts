// What the relay's parts share: one context per relay, and the state it keeps per socket.
import type { Logger } from '../logger.js'
import type { RateLimiter } from '../rateLimiter.js'
import type { RelayLimits } from './relayOptions.js'
import type { RelayCounts, RelaySocket } from './relayTypes.js'
import type { RelayStore, StoredMessage } from './store.js'

/** One socket's state. */
export type Conn = {
  socket: RelaySocket
  clientId: string
  address: string
  /** Topic → its subscription id (a sha256, computed once per subscription rather than per push). */
  topics: Map<string, string>
  /** The newest push awaiting its ack and its id (`inflight.ts`). */
  newest: StoredMessage | undefined
  newestId: number
  /** Older pushes awaiting their ack, oldest first; made once a push is sent while another awaits its ack. */
  inflight: Map<number, StoredMessage> | undefined
  /** Later frames wait here while a request other than a publish waits on the store, or publishes hold too much. */
  waiting: string[] | undefined
  waitingBytes: number
  /** Answers not sent yet, in request order (`receiver.ts`); `undefined` when none. */
  answers: PendingAnswer[] | undefined
  /** Requests other than publishes waiting on the store (later frames wait behind them). */
  blocking: number
  /** Bytes of the publishes waiting on the store. */
  publishingBytes: number
  /** Topics whose kept messages are being read from a shared store: live pushes wait so order stays publish order. */
  loading: Map<string, StoredMessage[]> | undefined
  closed: boolean
  /** Closed by the relay for bad frames beyond the rate limit: later frames are ignored until the socket is gone. */
  refused: boolean
}

/** An answer not sent yet: answers go out in request order, each once it is settled. */
export type PendingAnswer = {
  settled: boolean
  /** Its frame's bytes while it waits on the store (a publish), counted in the socket's waiting bytes. */
  bytes: number
  /** A request that makes later frames wait until it is settled. */
  blocking: boolean
  frame: string | undefined
  after: (() => void) | undefined
}

/** The relay's settings, counters and shared state, built once by `createRelay` and read by its parts. */
export type RelayContext = {
  readonly store: RelayStore
  readonly counts: RelayCounts
  readonly logger: Logger
  /** Every numeric limit, defaults applied. */
  readonly limits: RelayLimits
  /** Longest `ttl`, seconds. */
  readonly maxTtl: number
  readonly maxTopicsPerSocket: number
  readonly maxMessageLength: number
  readonly maxMessageLengthByTag: Readonly<Record<number, number>> | undefined
  /** Smallest request id accepted, when set. */
  readonly minRequestId: bigint | undefined
  readonly perSocket: RateLimiter
  readonly perAddress: RateLimiter
  readonly conns: Set<Conn>
  /** Topic → this node's sockets subscribed to it. */
  readonly subscribers: Map<string, Set<Conn>>
  /** Counts a store failure and logs it. */
  readonly failed: (error: unknown) => void
}

/** A handler's answer: the `result`, and what to do once it is sent (push kept messages after a subscribe's id). */
export type Outcome = { result: unknown; after?: (() => void) | undefined }

export const TRUE: Outcome = { result: true }

export const isPromise = <T>(value: T | Promise<T>): value is Promise<T> => value instanceof Promise
