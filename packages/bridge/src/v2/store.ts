import type { Logger } from '../logger.js'

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
  /** Address key of the publisher: its kept bytes count against that address's budget. */
  owner: string
  attestation?: string | undefined
  /** What it costs the store: the message's and topic's lengths. */
  bytes: number
  /**
   * Client ids that acknowledged it (memory store only; a shared store keeps acks itself): none, the one client id
   * (a topic's usual single reader, without a `Set` kept per message), or a set of them.
   */
  acked: string | Set<string> | undefined
  /** Identity in a shared store, the same on every node (absent in memory, where the object is the identity). */
  id?: string | undefined
}

/** Why a store refused a message: over the topic's byte cap, the address's budget, or the total cap. */
export type StoreRefusal = 'topic' | 'address' | 'total'

/** Limits every store applies; the relay passes its options. */
export type RelayStoreLimits = {
  /** Messages kept per topic; the oldest is dropped beyond. */
  maxMessagesPerTopic: number
  /** Bytes kept per topic; the oldest are dropped beyond (a larger message is refused). */
  maxBytesPerTopic: number
  /** Bytes one address (the publisher's address key) may have kept over all topics; a message beyond is refused. */
  maxBytesPerAddress: number
  /** Bytes the addresses of one network (IPv4 /24, IPv6 /48) may have kept; a message beyond is refused. */
  maxBytesPerNetwork: number
  /** Bytes kept over all topics; a message beyond is refused, nobody's kept message is evicted for it. */
  maxTotalBytes: number
}

/** What the relay hands its store when it starts. */
export type RelayStoreContext = {
  limits: RelayStoreLimits
  logger: Logger
  /** Counts messages the per-topic caps dropped. */
  dropped(count: number): void
  /** Counts expired messages a store took away outside `sweep` (while making room). */
  expired(count: number): void
  /** Counts a failed store operation that had nobody to answer (an ack, a registration, a sweep). */
  failed(error: unknown): void
  /** A message published on another node: push it to this node's subscribers of its topic. Shared stores only. */
  deliver(message: StoredMessage): void
  /**
   * The store lost its connection (shared stores): live pushes wait until {@link RelayStoreContext.recovered} has
   * re-read what is kept, so that a message kept meanwhile without reaching this node goes out before later ones.
   */
  recovering?(): void
  /**
   * The store lost its shared state or its connection and is back: push to every subscriber on this node what the
   * store keeps for it (`pending` of each of its topics). Shared stores only.
   */
  recovered(): void
}

/** Result of one slice of housekeeping. */
export type SweepResult = { expired: number; done: boolean }

/**
 * Where the v2 relay keeps messages and, for several nodes, how it fans them out. Methods answer synchronously
 * (memory: no promise on the hot path) or with a promise (Redis), as v1's `Backend` does; the relay accepts both.
 * A rejected promise is answered to the client as a retryable JSON-RPC error and counted.
 */
export type RelayStore = {
  /** `memory` or `redis`, for logs. */
  readonly name: string
  /** Called once by the relay; resolves once the store can serve. */
  start(context: RelayStoreContext): void | Promise<void>
  /** Keeps `message` and hands it to the other nodes' subscribers; a refusal says which cap refused it. */
  add(message: StoredMessage): StoreRefusal | undefined | Promise<StoreRefusal | undefined>
  /** Unexpired messages of `topic`, oldest first, not published by `clientId` and not acknowledged by it. */
  pending(
    topic: string,
    clientId: string,
    now: number,
  ): readonly StoredMessage[] | Promise<readonly StoredMessage[]>
  /** Records that `clientId` has `message`: not pushed to it again, from any node. */
  ack(message: StoredMessage, clientId: string): void
  /** This node has its first subscriber of `topic` (shared stores register the node for the topic's fan-out). */
  watch(topic: string): void | Promise<void>
  /** This node has no subscriber of `topic` any more. */
  unwatch(topic: string): void
  /** One bounded slice of the expiry sweep: call again until `done`. */
  sweep(now: number): SweepResult | Promise<SweepResult>
  /** Messages and bytes kept (a shared store answers what it last read). */
  size(): { messages: number; bytes: number }
  /** Whether the store can serve now (`GET /health`). */
  isHealthy(): Promise<boolean>
  /** Stops timers and closes connections; a shared store keeps its messages. */
  close(): Promise<void>
}
