import type { Logger } from '../logger.js'
import type { BridgeCounts } from '../metrics.js'

/** Queue limits a backend applies to messages kept for an offline peer. */
export type QueueLimits = {
  /** Time-to-live of a queued message, in seconds (fractions allowed). */
  ttlSeconds: number
  /** Messages kept per topic; the oldest is dropped beyond it. */
  maxQueueLength: number
  /** Bytes kept per topic; the oldest messages are dropped beyond it. */
  maxQueuedBytes: number
  /** Bytes one owner (the publisher's address key) may have queued over all topics; more are refused. */
  maxQueuedBytesPerOwner: number
}

/** What the bridge hands its backend when it starts. */
export type BackendContext = {
  counts: BridgeCounts
  logger: Logger
  queue: QueueLimits
  webhooks: { maxPerTopic: number; ttlSeconds: number }
  /**
   * Writes a frame published on another node to this node's subscribers of `topic`; returns how many got it.
   * `bytes`: its UTF-8 size, when the backend knows it (else it is counted). Only backends shared by several nodes
   * call it.
   */
  deliver(topic: string, frame: string, bytes?: number): number
}

/**
 * Where the state that outlives a socket lives: queued messages, webhooks, and the fan-out between nodes.
 * The bridge core keeps its own sockets; a backend never sees one. Methods may answer synchronously (memory) or
 * with a promise (Redis); the core accepts both so the memory hot path allocates no promise.
 */
export type Backend = {
  /** `memory` or `redis`, for logs. */
  readonly name: string
  /** Connects and resolves once the backend can serve. */
  start(context: BackendContext): Promise<void>
  /** This node has its first subscriber of `topic`: receive what other nodes publish on it. */
  subscribe(topic: string): void
  /** This node has no subscriber of `topic` any more. */
  unsubscribe(topic: string): void
  /**
   * A `pub` that reached `delivered` sockets on this node: hand it to the other nodes, and queue it when nobody,
   * here or elsewhere, received it. Deciding both at once keeps a subscriber on another node from missing it.
   * `owner` is the publisher's address key: queued bytes are budgeted and evicted per owner.
   */
  publish(topic: string, frame: string, bytes: number, delivered: number, owner: string): void | Promise<void>
  /** Queues a frame for `topic` on `owner`'s budget (TTL, length, byte, per-owner and total caps applied). */
  enqueue(topic: string, frame: string, bytes: number, owner: string): void | Promise<void>
  /** Removes and returns the frames queued for `topic`, oldest first; two concurrent drains never share a frame. */
  drain(topic: string): readonly string[] | Promise<readonly string[]>
  /** Registers a push webhook for `topic`. */
  addWebhook(topic: string, url: string): void | Promise<void>
  /** The push webhooks of `topic`. */
  webhooks(topic: string): readonly string[] | Promise<readonly string[]>
  /** Whether the backend can serve now (`GET /health`). */
  isHealthy(): Promise<boolean>
  /** Stops timers and closes connections. Messages kept by a shared backend stay there. */
  close(): Promise<void>
  /**
   * The links between nodes, lent to the v2 relay's store on the same nodes (`createRedisRelayStore({ links })`), so
   * that v2 messages cross nodes as v1 frames do. Redis backend only.
   */
  readonly relayLinks?: RelayLinks | undefined
}

/** A node's links to the other nodes sharing its Redis, as the v2 relay's store uses them. */
export type RelayLinks = {
  /** This node's id on the links: the v2 store registers under it, so that other nodes can reach it. */
  readonly nodeId: string
  /** Whether the links are started (they start with the bridge, and are off with `links: false`). */
  readonly ready: boolean
  /**
   * Sends `message` to `node`, after what this node sent it before: over the link while one is up, through Redis
   * otherwise. `gone` runs when nobody listens there (the node is gone). `false` while the links are not started (or
   * are off): the caller reaches the node its own way.
   */
  send(node: string, message: string, gone: () => void): boolean
  /** Handles the messages other nodes send this node's v2 store, in the order each node sent them. */
  listen(handler: (message: Buffer) => void): void
}
