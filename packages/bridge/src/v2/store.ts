import type { Logger } from '../logger.js'
import { DEFAULT_RELAY_ADDRESS_SHARE_DIVISOR, DEFAULT_RELAY_NETWORK_SHARE_DIVISOR } from './relayOptions.js'

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
  /** What it costs the store: {@link storedBytes}. */
  bytes: number
  /**
   * Client ids that acknowledged it (memory store only; a shared store keeps acks itself): none, the one client id
   * (a topic's usual single reader, without a `Set` kept per message), or a set of them.
   */
  acked: string | Set<string> | undefined
  /** Identity in a shared store, the same on every node (absent in memory, where the object is the identity). */
  id?: string | undefined
  /** Position in its topic in a shared store (Redis: the entry's score), which an ack names; set by the store. */
  seq?: number | undefined
  /**
   * Memory store only, set by it: `owed` from its add until its first ack, then `delivered` (evictable), `gone` once
   * dropped, evicted or expired (a late ack then changes no budget).
   */
  state?: 'owed' | 'delivered' | 'gone' | undefined
}

/**
 * What the store keeps per message besides its strings, measured with a 1-character message: the memory store's
 * object, list slot and delivered-set slot (~220 bytes of heap); Redis's entry header (with the publisher's client
 * id), its data's JSON keys, the topic again in the data and in the ledger, the sorted-set nodes of the entry and the
 * ledger (~580 bytes of `used_memory` while owed), then on its first ack its `a:{id}` set and `d` member (~1 170 in
 * all once delivered). One figure for both stores, so that they agree: Redis's, rounded to 1 KiB.
 */
export const STORED_MESSAGE_OVERHEAD = 1_024

/**
 * Client ids recorded as having acknowledged one message, at most: a topic has two readers in use (dapp and wallet),
 * a few more with several devices. Beyond, an ack is not recorded (the message may be pushed to that client again, at
 * least once as ever), so that fresh client ids, free to make, cannot grow one message's record without bound.
 */
export const MAX_ACKS_PER_MESSAGE = 32

/**
 * What a kept message costs the budgets: every string kept with it (message, topic, attestation) and the store's own
 * bookkeeping ({@link STORED_MESSAGE_OVERHEAD}), in UTF-16 code units as the lengths count.
 *
 * @example
 * storedBytes('hello', 'a'.repeat(64), undefined) // 5 + 64 + 1024
 */
export function storedBytes(message: string, topic: string, attestation: string | undefined): number {
  return message.length + topic.length + (attestation?.length ?? 0) + STORED_MESSAGE_OVERHEAD
}

/**
 * The owed bytes one address may have kept: its budget or `free / ADDRESS_SHARE_DIVISOR`, whichever is smaller, so
 * that its share shrinks as the mailbox fills. `free` is `maxTotalBytes` less the owed bytes of everyone: delivered
 * messages make room on demand, so they do not shrink anyone's share.
 */
export const ADDRESS_SHARE_DIVISOR = DEFAULT_RELAY_ADDRESS_SHARE_DIVISOR
/** The owed bytes one network may have kept: its budget or `free / NETWORK_SHARE_DIVISOR`, whichever is smaller. */
export const NETWORK_SHARE_DIVISOR = DEFAULT_RELAY_NETWORK_SHARE_DIVISOR

/**
 * Why a store refused a message: over the topic's byte cap, the address's share, the network's share, or the total
 * cap (nothing delivered left to evict).
 */
export type StoreRefusal = 'topic' | 'address' | 'network' | 'total'

/** Limits every store applies; the relay passes its options. */
export type RelayStoreLimits = {
  /** Messages kept per topic; the oldest is dropped beyond. */
  maxMessagesPerTopic: number
  /** Bytes kept per topic; the oldest are dropped beyond (a larger message is refused). */
  maxBytesPerTopic: number
  /**
   * Owed bytes (kept, not yet acked by anyone) one address (the publisher's address key) may have over all topics,
   * at most `free / ADDRESS_SHARE_DIVISOR`; a message beyond is refused.
   */
  maxBytesPerAddress: number
  /**
   * Owed bytes the addresses of one network (IPv4 /24, IPv6 /48) may have, at most `free / NETWORK_SHARE_DIVISOR`;
   * a message beyond is refused.
   */
  maxBytesPerNetwork: number
  /** An address may owe at most `free / addressShareDivisor`. @default ADDRESS_SHARE_DIVISOR */
  addressShareDivisor?: number | undefined
  /** A network may owe at most `free / networkShareDivisor`. @default NETWORK_SHARE_DIVISOR */
  networkShareDivisor?: number | undefined
  /**
   * Bytes kept over all topics, owed and delivered; a message beyond evicts delivered messages (oldest delivered
   * first), never an owed one: it is refused when they do not make room.
   */
  maxTotalBytes: number
}

/** What the relay hands its store when it starts. */
export type RelayStoreContext = {
  limits: RelayStoreLimits
  logger: Logger
  /** Counts messages the per-topic caps dropped and delivered messages evicted to make room. */
  dropped(count: number): void
  /** Counts expired messages a store took away outside `sweep` (while making room). */
  expired(count: number): void
  /** Counts a failed store operation that had nobody to answer (an ack, a registration, a sweep). */
  failed(error: unknown): void
  /**
   * A message published on another node: push it to this node's subscribers of its topic (`json`: its message as
   * JSON text, when the store has it). Shared stores only.
   */
  deliver(message: StoredMessage, json?: string): void
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
  /**
   * Keeps `message` and hands it to the other nodes' subscribers; a refusal says which cap refused it. `read`: whether
   * a subscriber on this node other than its publisher is pushed it now (one whose ack may soon make keeping it moot);
   * `json`: the message as JSON text (`JSON.stringify(message.message)`), when the caller has it.
   */
  add(
    message: StoredMessage,
    read?: boolean,
    json?: string,
  ): StoreRefusal | undefined | Promise<StoreRefusal | undefined>
  /** Unexpired messages of `topic`, oldest first, not published by `clientId` and not acknowledged by it. */
  pending(
    topic: string,
    clientId: string,
    now: number,
  ): readonly StoredMessage[] | Promise<readonly StoredMessage[]>
  /**
   * Records that `clientId` has `message`: not pushed to it again, from any node. The first ack of a message makes it
   * delivered: its bytes leave its address's and network's budgets, and it may be evicted to make room.
   */
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
