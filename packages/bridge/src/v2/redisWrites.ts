// What a v2 Redis store node writes, a turn of its event loop at a time: the messages it keeps (one add script call
// per 100) and the acks it records (one ack script call per 500), sent together at the end of the turn.
import type { Redis } from 'ioredis'
import { createKeyCounts } from '../keyCounts.js'
import { entryOf } from './redisEntry.js'
import type { ReplicaWaiter } from './replicaWait.js'
import type { StoredMessage, StoreRefusal } from './store.js'

/** The store's connection, with its scripts (`redisStoreScripts.ts`). */
export type Scripted = Redis & {
  relayAdd(...args: (string | number)[]): Promise<unknown[]>
  relayPending(...args: (string | number)[]): Promise<string[][]>
  relayWatch(...args: (string | number)[]): Promise<number>
  relaySweep(...args: (string | number)[]): Promise<[number, number, number]>
  relayAck(...args: (string | number)[]): Promise<number>
}

/** A message of this node on its way to Redis. */
export type Added = {
  message: StoredMessage
  resolve(refusal: StoreRefusal | undefined): void
  reject(error: unknown): void
  /** Client ids that acked the message before the add answered. */
  acks?: string[]
  /**
   * While the message waits in this node's memory (`writeDelayMs`), when it is written at the latest (ms); 0 once it
   * is sent to Redis; -1 when a reader acked it first (delivered, never written).
   */
  due: number
  /** What the add script keeps (built when written). */
  entry?: string
  /** The message as JSON text, when its publish had it (what the links and pushes carry). */
  json?: string | undefined
  /** The other nodes it was sent to over the links while held back. */
  sentTo?: readonly string[]
}

// Acks one ack script records at most (five arguments each), and messages one add script keeps at most.
const ACK_SLICE = 500
const ACK_ARGUMENTS = 5
const ADD_SLICE = 100
// The add script's refusal codes (negated in its answer; a kept message's answer is its seq).
const REFUSALS: readonly (StoreRefusal | undefined)[] = [undefined, 'topic', 'address', 'total', 'network']

/** Parameters of {@link createRedisWrites}. */
export type CreateRedisWritesParameters = {
  commands: Scripted
  /** Answers publishes once replicas hold what was kept (`waitForReplicas`). */
  waiter: ReplicaWaiter | undefined
  /** Whether the add script publishes kept messages on the other nodes' channels (else this node sends them). */
  publishing(): boolean
  /**
   * A message the add script answered for, before its publisher is: `seq` (0 when refused), and the other nodes
   * registered for its topic, space-separated (`undefined` when refused).
   */
  written(one: Added, seq: number, nodes: string | undefined, published: boolean): void
  /** A write failed: the message is not kept (its publisher gets the error). */
  lost(one: Added): void
  /** What an add reported: messages dropped and expired on the way, and the mailbox's messages and bytes. */
  counted(dropped: number, expired: number, messages: number, bytes: number): void
  failed(error: unknown): void
  /** Runs at the end of each flush (the link traffic of the turn). */
  flushed(): void
  /** No message of `topic` is being written any more (after `written` of the last). */
  idle(topic: string): void
}

/** The turn's adds and acks of one store node. */
export function createRedisWrites(parameters: CreateRedisWritesParameters) {
  const { commands, waiter } = parameters
  let adds: string[] = []
  let added: Added[] = []
  let acks: (string | number)[] = []
  let flushing: ReturnType<typeof setImmediate> | undefined
  // Messages written whose add has not answered, per topic.
  const writing = createKeyCounts()
  let lastStamp = 0

  const done = (one: Added) => {
    const topic = one.message.topic
    if (writing.add(topic, -1) <= 0) parameters.idle(topic)
  }
  const keep = (args: string[], waiting: Added[]) => {
    const rejectAll = (error: unknown) => {
      for (const one of waiting) {
        parameters.lost(one)
        one.reject(error)
      }
    }
    const published = parameters.publishing()
    commands.relayAdd(Date.now(), published ? 1 : 0, ...args).then(
      (result) => {
        const n = waiting.length
        parameters.counted(...(result.slice(n, n + 4) as [number, number, number, number]))
        // What was kept is recorded (sequence numbers, acks that came first) whether or not the publisher is told so.
        for (let i = 0; i < n; i++) {
          const one = waiting[i] as Added
          const nodes = result[n + 4 + i]
          parameters.written(
            one,
            Math.max(0, result[i] as number),
            typeof nodes === 'string' ? nodes : undefined,
            published,
          )
          done(one)
        }
        const answer = () => {
          for (let i = 0; i < n; i++) {
            const seq = result[i] as number
            ;(waiting[i] as Added).resolve(seq > 0 ? undefined : REFUSALS[-seq])
          }
        }
        if (!waiter) return answer()
        // Answered once replicas hold what was kept (refusals too: rare, and not worth telling apart). Unconfirmed,
        // the messages are kept all the same (their acks recorded), but the publisher is not told so.
        waiter.wait().then(answer, rejectAll)
      },
      (error: unknown) => {
        for (const one of waiting) done(one)
        rejectAll(error)
      },
    )
  }

  const flush = () => {
    if (flushing) clearImmediate(flushing)
    flushing = undefined
    for (let i = 0; i < added.length; i += ADD_SLICE)
      keep(adds.slice(i * 2, (i + ADD_SLICE) * 2), added.slice(i, i + ADD_SLICE))
    for (let i = 0; i < acks.length; i += ACK_SLICE * ACK_ARGUMENTS)
      commands.relayAck(...acks.slice(i, i + ACK_SLICE * ACK_ARGUMENTS)).catch(parameters.failed)
    adds = []
    added = []
    acks = []
    parameters.flushed()
  }
  const schedule = () => {
    flushing ??= setImmediate(flush)
  }

  return {
    /**
     * Sends the turn's messages and acks: at the end of the turn, and before any read of the mailbox (same
     * connection), so that the read sees what this node kept and acked before it.
     */
    flush,
    /** Flushes at the end of this turn. */
    schedule,
    /** Writes `one` with this turn's messages. */
    queue(one: Added) {
      one.due = 0
      one.entry ??= entryOf(one.message)
      adds.push(one.message.topic, one.entry)
      added.push(one)
      writing.add(one.message.topic)
      schedule()
    },
    /** Whether a message of `topic` is being written (its add not answered yet). */
    writing: (topic: string) => writing.has(topic),
    /** Records `clientId`'s ack of a kept message (its seq known) with this turn's. */
    ack(message: StoredMessage, clientId: string) {
      const ttl = message.expiresAt - Date.now()
      if (message.id === undefined || message.seq === undefined || ttl <= 0) return
      // Its ledger item, as the add script wrote it: the ack script finds the message (and its budgets) by it.
      const item = `${message.seq} ${message.bytes} ${message.owner || '-'} ${message.id} ${message.topic}`
      // A stamp that only grows on this node (µs of the clock, or one more): the delivered set's order, kept by one
      // `ZADD NX` that also says whether this is the message's first ack.
      lastStamp = Math.max(Date.now() * 1_000, lastStamp + 1)
      acks.push(message.id, clientId, ttl, item, lastStamp)
      schedule()
    },
  }
}
