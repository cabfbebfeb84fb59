// The relay's public types and defaults; createRelay.ts re-exports them, so the package entry and callers import
// them from there.
import type { Logger } from '../logger.js'
import type { RelayRefusal } from './admission.js'
import type { RelayLimits } from './relayOptions.js'
import type { RelayStore } from './store.js'

/**
 * Parameters of {@link createRelay}: every limit has a safe default, named in `relayOptions.ts` (`RELAY_LIMITS`) and
 * checked by `resolveRelayLimits`.
 */
export type CreateRelayParameters = {
  logger?: Logger | undefined
  /** Where messages are kept: one node in memory, or shared by several (`createRedisRelayStore`). @default memory */
  store?: RelayStore | undefined
  /** Longest a message is kept, seconds; a longer `ttl` is cut to it. @default 604800 (7 days) */
  maxTtlSeconds?: number | undefined
  /** Topics one socket may subscribe. @default 1000 */
  maxTopicsPerSocket?: number | undefined
  /** Topics all the sockets of one address may subscribe together. @default 20000 */
  maxTopicsPerIp?: number | undefined
  /** Messages kept per topic (oldest dropped beyond). @default 1000 */
  maxMessagesPerTopic?: number | undefined
  /** Bytes kept per topic (oldest dropped beyond). @default 8388608 */
  maxBytesPerTopic?: number | undefined
  /**
   * Bytes one address (its publishers' address key: IPv4 as is, IPv6 by /64) may be owed over all topics (kept and
   * not yet acknowledged by any reader); the share shrinks as the mailbox fills; beyond, -32000. @default 16777216
   */
  maxQueuedBytesPerIp?: number | undefined
  /** Bytes one network (IPv4 /24, IPv6 /48) may be owed, shrinking as the mailbox fills. @default 33554432 */
  maxQueuedBytesPerNetwork?: number | undefined
  /** An address may be owed at most `(maxTotalBytes - owed bytes) / addressShareDivisor`. @default 64 */
  addressShareDivisor?: number | undefined
  /** A network may be owed at most `(maxTotalBytes - owed bytes) / networkShareDivisor`. @default 32 */
  networkShareDivisor?: number | undefined
  /**
   * Bytes kept over all topics; beyond, messages already delivered make room, then publishes are refused (nothing
   * still owed is evicted). @default 268435456
   */
  maxTotalBytes?: number | undefined
  /** Requests per second per socket (token bucket; acks are free), 0 = no limit. @default 100 */
  maxRequestsPerSecond?: number | undefined
  /** Bucket size per socket. @default 200 */
  requestBurst?: number | undefined
  /** Requests per second of all the sockets of one address, 0 = no limit. @default 1000 */
  maxRequestsPerSecondPerIp?: number | undefined
  /** Bucket size per address. @default 2000 */
  requestBurstPerIp?: number | undefined
  /** Largest `message`, characters. @default 524288 */
  maxMessageLength?: number | undefined
  /** Largest `attestation`, characters; it is kept and counted with its message. @default 4096 */
  maxAttestationLength?: number | undefined
  /**
   * Bytes of messages one `irn_batchFetchMessages` answer carries (`hasMore` says the rest waits), and one round of
   * kept messages pushed after a subscribe; at least one message always goes. @default 1048576
   */
  maxAnswerBytes?: number | undefined
  /** Longest lifetime of a relay token, `exp - iat`, seconds; a longer-lived token is refused. @default 86400 */
  maxTokenLifetimeSeconds?: number | undefined
  /** Expired messages are swept this often, ms (in slices, between deliveries). @default 60000 */
  sweepIntervalMs?: number | undefined
  /**
   * Project ids this relay serves: an upgrade whose `projectId` is missing or not listed is refused with 403. Without
   * it every `projectId` (or none) is accepted as is.
   */
  projectIds?: readonly string[] | undefined
  /**
   * Project ids this relay serves, each with the page origins allowed to use it (`scheme://host[:port]`, or a bare
   * `host[:port]` for any scheme; an empty list allows every origin), as WalletConnect's relay checks a project's
   * allow-list. Pages at localhost, 127.0.0.1 and [::1], and clients that send no `Origin` (Node, phone wallets),
   * are always allowed. A missing or unlisted project id, or an origin not on the list, is refused (see `refusal`).
   * Merged with `projectIds` (each of those allows every origin). @default undefined (every project id, any origin)
   */
  projects?: Readonly<Record<string, readonly string[]>> | undefined
  /**
   * Origins allowed for every project, added to each project's own list; without `projects`, the only origins
   * allowed at all (besides local pages and clients without `Origin`). @default undefined (any origin)
   */
  allowedOrigins?: readonly string[] | undefined
  /**
   * How an upgrade is refused: `'http'` answers 401 (bad token) or 403 (project, origin) without upgrading;
   * `'close'` accepts the upgrade and closes at once with code 3000 (`RELAY_REFUSAL_CLOSE_CODE`) and
   * WalletConnect's reasons ('Project ID is missing', 'Project not found', 'Unauthorized: origin not allowed';
   * 'Unauthorized: <what is wrong with the token>' for a bad token), which the SDK takes as final. @default 'http'
   */
  refusal?: 'http' | 'close' | undefined
  /**
   * Smallest JSON-RPC request id accepted (numbers or strings of decimal digits); a smaller or non-numeric id gets
   * -32600. WalletConnect's relay wants ids ≥ 10^9. @default undefined (any id)
   */
  minRequestId?: number | undefined
  /**
   * Longest `message` per tag, characters, for `irn_publish` (and the messages of `wc_*Session`, tags 1100–1102);
   * one over gets -32602 "Maximum size for tag {tag} is {n}" (the hosted relay's text). @default {} (only
   * `maxMessageLength`)
   */
  maxMessageLengthByTag?: Readonly<Record<number, number>> | undefined
}

/** What the relay needs from a socket (the server's `Peer` fits). */
export type RelaySocket = {
  readonly id: string
  readonly remoteAddress: string
  /** Sends a text frame; `false` when the socket is gone. */
  send(text: string): boolean
  /** Closes the socket with a WebSocket close code and reason (a client over the rate limit with bad frames). */
  close(code: number, reason: string): void
}

/** One client's socket as the relay sees it. */
export type RelayConnection = {
  receive(text: string, bytes: number): void
  receiveBinary(bytes: number): void
  close(): void
}

/** Counters of the relay, read by tests and metrics. */
export type RelayCounts = {
  connections: number
  subscriptions: number
  publishes: number
  deliveries: number
  acks: number
  expired: number
  dropped: number
  refused: number
  invalid: number
  /** Upgrades refused for any reason: a bad token, or (below) a project or an origin. */
  authRefusals: number
  /** Upgrades refused for a missing or unknown project id. */
  projectRefusals: number
  /** Upgrades refused for an `Origin` not allowed for the project. */
  originRefusals: number
  /** Store operations that failed (Redis away): answered with -32603 when a request waited on them. */
  storeErrors: number
}

/** Return type of {@link createRelay}. */
export type Relay = {
  /** Attaches a socket whose token named `clientId`. */
  connect(socket: RelaySocket, clientId: string): RelayConnection
  /** Whether an upgrade naming `projectId` (`null` when it names none) may connect. */
  admitsProject(projectId: string | null): boolean
  /**
   * Checks an upgrade's project id (`null`: none) and `Origin` header (`undefined`: none) against `projects`,
   * `projectIds` and `allowedOrigins`: `undefined` when it may connect, else why not.
   */
  admit(projectId: string | null, origin: string | undefined): RelayRefusal | undefined
  /** How upgrades are refused (the `refusal` option). */
  readonly refusal: 'http' | 'close'
  /** The numeric limits in force (defaults applied). */
  readonly limits: RelayLimits
  counts: RelayCounts
  /** Messages and bytes in the mailbox (a shared store's figures as last read). */
  mailbox(): { messages: number; bytes: number }
  /** Starts the store (connects to Redis); resolves once it can serve. Already done for the memory store. */
  start(): Promise<void>
  /** Whether the store can serve (`GET /health`). */
  isHealthy(): Promise<boolean>
  /** Stops the sweep and closes the store (a shared store keeps its messages). */
  close(): Promise<void>
}
