import { createHash } from 'node:crypto'
import { createKeyCounts } from '../keyCounts.js'
import { trackPush } from './inflight.js'
import { LimitError, type Publish } from './params.js'
import { type Conn, isPromise, type Outcome, type RelayContext, TRUE } from './relayContext.js'
import { type StoredMessage, type StoreRefusal, storedBytes } from './store.js'

const REFUSALS: Record<StoreRefusal, string> = {
  topic: 'Message too large for the mailbox',
  address: 'Too many bytes kept for this address, try again later',
  network: 'Too many bytes kept for this network, try again later',
  total: 'Mailbox full, try again later',
}

// Addresses remembered as refused by a shared store, at most.
const REFUSED_ADDRESSES = 4_096

/** Return type of {@link createPubSub}. */
export type PubSub = {
  /** Subscribes locally; a promise when the store registers this node for the topic's fan-out. */
  subscribe(conn: Conn, topic: string): void | Promise<void>
  unsubscribe(conn: Conn, topic: string): void
  /** Subscribes `topics`, answers `result`, then pushes their kept messages. */
  subscribeAll(conn: Conn, topics: readonly string[], result: unknown): Outcome | Promise<Outcome>
  /**
   * Keeps the message, then pushes it to this node's other subscribers; a promise with a shared store. `json`: the
   * message as JSON text (`JSON.stringify(publish.message)`), when the caller has it.
   */
  publish(conn: Conn, publish: Publish, json?: string): Promise<Outcome> | undefined
  /** {@link PubSub.publish} of each, in order. */
  publishAll(conn: Conn, list: readonly Publish[]): Promise<void> | undefined
  /** A message published on another node: pushed to this node's subscribers (the store's `deliver`). */
  fanOut(message: StoredMessage): void
  /** The shared store lost its connection: live pushes wait for {@link PubSub.recovered} (the store's `recovering`). */
  recovering(): void
  /** The shared store is back: pushes to every socket here what is kept for it (the store's `recovered`). */
  recovered(): void
}

/**
 * The relay's subscriptions and pushes: this node's subscribers per topic, `irn_subscription` frames, and the order
 * of kept and live messages while a shared store is read.
 */
export function createPubSub(ctx: RelayContext): PubSub {
  const { store, counts, subscribers, maxTopicsPerSocket, maxTtl } = ctx
  let nextPushId = Date.now() * 1_000

  // `false` when the socket refused the frame (gone, or dropped as a reader that fell too far behind).
  const push = (conn: Conn, message: StoredMessage, json = JSON.stringify(message.message)): boolean => {
    const id = nextPushId++
    const subscription = conn.topics.get(message.topic) ?? subscriptionId(message.topic, conn.clientId)
    // Written by hand (the hot path): the topic and subscription id are hex, the numbers integers, so only the
    // strings from the client need JSON.stringify; the keys are in the order JSON.stringify of the object gave.
    const attestation =
      message.attestation === undefined ? '' : `,"attestation":${JSON.stringify(message.attestation)}`
    const frame = `{"id":${id},"jsonrpc":"2.0","method":"irn_subscription","params":{"id":"${subscription}","data":{"topic":"${message.topic}","message":${json},"publishedAt":${message.publishedAt},"tag":${message.tag}${attestation}}}}`
    if (!conn.socket.send(frame)) return false
    trackPush(conn, id, message)
    counts.deliveries++
    return true
  }

  // Kept messages, in order, until the socket refuses one: a socket dropped for falling behind costs no more work.
  const pushAll = (conn: Conn, messages: readonly StoredMessage[]): boolean => {
    for (const message of messages) if (!push(conn, message)) return false
    return true
  }

  // A live push waits while the topic's kept messages are read (shared stores only), then goes after them.
  const pushLive = (conn: Conn, message: StoredMessage, json?: string) => {
    const buffered = conn.loading?.get(message.topic)
    if (buffered) buffered.push(message)
    else push(conn, message, json)
  }

  // Whether a subscriber here other than the publisher gets the message.
  const hasReader = (message: StoredMessage) => {
    const set = subscribers.get(message.topic)
    if (set) for (const other of set) if (other.clientId !== message.from) return true
    return false
  }

  // To this node's subscribers of the topic but its publisher; `json` serialised once for all of them.
  const fanOut = (message: StoredMessage, json?: string) => {
    const set = subscribers.get(message.topic)
    if (!set) return
    for (const other of set) {
      if (other.clientId === message.from) continue
      json ??= JSON.stringify(message.message)
      pushLive(other, message, json)
    }
  }

  // Subscribes locally; a promise when the store registers this node for the topic's fan-out.
  // Subscriptions per address over all its sockets: each costs this node memory (and a Redis set per topic).
  const perAddress = createKeyCounts()
  const { maxTopicsPerIp } = ctx.limits
  const subscribe = (conn: Conn, topic: string): void | Promise<void> => {
    if (conn.topics.has(topic)) return
    if (conn.topics.size >= maxTopicsPerSocket) throw new LimitError('Too many topics for this socket')
    if (perAddress.get(conn.address) >= maxTopicsPerIp)
      throw new LimitError('Too many topics for this address')
    perAddress.add(conn.address)
    conn.topics.set(topic, subscriptionId(topic, conn.clientId))
    counts.subscriptions++
    const set = subscribers.get(topic)
    if (set) {
      set.add(conn)
      return
    }
    subscribers.set(topic, new Set([conn]))
    return store.watch(topic)
  }

  const unsubscribe = (conn: Conn, topic: string) => {
    if (!conn.topics.delete(topic)) return
    counts.subscriptions--
    perAddress.add(conn.address, -1)
    const set = subscribers.get(topic)
    set?.delete(conn)
    if (set?.size === 0) {
      subscribers.delete(topic)
      store.unwatch(topic)
    }
  }

  const startLoading = (conn: Conn, topic: string) => {
    conn.loading ??= new Map()
    conn.loading.set(topic, [])
  }
  const stopLoading = (conn: Conn, topic: string) => {
    conn.loading?.delete(topic)
    if (conn.loading?.size === 0) conn.loading = undefined
  }
  // Pushes what was read, then the live pushes that arrived meanwhile and were not in it.
  const finishLoading = (conn: Conn, topic: string, kept: readonly StoredMessage[]) => {
    const live = conn.loading?.get(topic) ?? []
    stopLoading(conn, topic)
    if (conn.closed || !conn.topics.has(topic)) return
    if (!pushAll(conn, kept)) return
    const seen = new Set(kept.map((message) => message.id))
    for (const message of live) if (!seen.has(message.id)) push(conn, message)
  }

  const finishAll = (conn: Conn, topics: readonly string[], lists: readonly (readonly StoredMessage[])[]) => {
    for (let i = 0; i < topics.length; i++) finishLoading(conn, topics[i] as string, lists[i] ?? [])
  }

  // Subscribes `topics`, answers, then pushes their kept messages; with a shared store both are read first.
  const subscribeAll = (
    conn: Conn,
    topics: readonly string[],
    result: unknown,
  ): Outcome | Promise<Outcome> => {
    const now = Date.now()
    let watching: Promise<void>[] | undefined
    for (const topic of topics) {
      const registered = subscribe(conn, topic)
      if (registered) {
        watching ??= []
        watching.push(registered)
      }
    }
    const kept = topics.map((topic) => store.pending(topic, conn.clientId, now))
    if (!watching && !kept.some(isPromise)) {
      const lists = kept as (readonly StoredMessage[])[]
      return {
        result,
        after: () => {
          for (const list of lists) if (!pushAll(conn, list)) return
        },
      }
    }
    for (const topic of topics) startLoading(conn, topic)
    return Promise.all([Promise.all(kept), ...(watching ?? [])]).then(
      ([lists]) => ({
        result,
        after: () => finishAll(conn, topics, lists),
      }),
      (error: unknown) => {
        for (const topic of topics) stopLoading(conn, topic)
        throw error
      },
    )
  }

  // Addresses whose last publish a shared store refused: until one of theirs is kept, their publishes are pushed only
  // once kept, so that a publisher over its share cannot feed readers what the store will not keep. Forgotten whole
  // beyond REFUSED_ADDRESSES (they then get one early push each again).
  const refusedAddresses = new Set<string>()
  // A refusal is answered (and counted) by the receiver as every LimitError is.
  const answered = (conn: Conn, refused: StoreRefusal | undefined): Outcome => {
    if (refused) {
      if (refusedAddresses.size >= REFUSED_ADDRESSES) refusedAddresses.clear()
      refusedAddresses.add(conn.address)
      throw new LimitError(REFUSALS[refused])
    }
    refusedAddresses.delete(conn.address)
    counts.publishes++
    return TRUE
  }

  // Keeps the message (and hands it to the other nodes) and pushes it to this node's subscribers. A shared store
  // answers after a round trip: the pushes here go out at once, in publish order, while it keeps the message (its
  // acks wait for the store's answer); a refusal then reaches the publisher only, as a v1 frame to a live subscriber
  // (the message is not kept, so never pushed again or fetched), and the address's next publishes wait for the store
  // until one is kept. `docs/relay-v2.md`, "Redis".
  const publish = (conn: Conn, publish: Publish, json?: string): Promise<Outcome> | undefined => {
    const now = Date.now()
    const stored: StoredMessage = {
      topic: publish.topic,
      message: publish.message,
      tag: publish.tag,
      publishedAt: now,
      expiresAt: now + Math.min(publish.ttl, maxTtl) * 1_000,
      from: conn.clientId,
      owner: conn.address,
      attestation: publish.attestation,
      bytes: storedBytes(publish.message, publish.topic, publish.attestation),
      acked: undefined,
      // Every field a store may set, from the start: one object shape on the hot path.
      id: undefined,
      seq: undefined,
      state: undefined,
    }
    const refused = store.add(stored, hasReader(stored), json)
    if (isPromise(refused)) {
      if (refusedAddresses.has(conn.address))
        return refused.then((value) => {
          const outcome = answered(conn, value)
          fanOut(stored, json)
          return outcome
        })
      fanOut(stored, json)
      return refused.then((value) => answered(conn, value))
    }
    answered(conn, refused)
    fanOut(stored, json)
    return undefined
  }

  // In order; with a shared store all are sent at once (one pipeline) and a refusal answers once all are settled.
  const publishAll = (conn: Conn, list: readonly Publish[]): Promise<void> | undefined => {
    let pending: Promise<Outcome>[] | undefined
    for (const one of list) {
      const done = publish(conn, one)
      if (done) {
        pending ??= []
        pending.push(done)
      }
    }
    if (!pending) return undefined
    return Promise.allSettled(pending).then((results) => {
      for (const result of results) if (result.status === 'rejected') throw result.reason
    })
  }

  // Topics of each socket whose live pushes wait for the store's recovery: marked when it lost its connection, as
  // what was published meanwhile may be kept without reaching this node; the recovery's re-read pushes it first.
  const held = new WeakMap<Conn, Set<string>>()
  const recovering = () => {
    for (const conn of ctx.conns) {
      let topics = held.get(conn)
      for (const topic of conn.topics.keys()) {
        if (conn.loading?.has(topic)) continue
        startLoading(conn, topic)
        if (!topics) {
          topics = new Set()
          held.set(conn, topics)
        }
        topics.add(topic)
      }
    }
  }

  // What the socket has been pushed and not acked yet: written to it already, so not pushed again.
  const awaitingAck = (conn: Conn) => {
    const ids = new Set<string | undefined>()
    if (conn.newest) ids.add(conn.newest.id)
    if (conn.inflight) for (const message of conn.inflight.values()) ids.add(message.id)
    ids.delete(undefined)
    return ids
  }

  // A shared store is back after losing its connection or its data: push to every socket here what is kept for it
  // (live pushes of its topics wait meanwhile), each message once and in publish order.
  const redeliver = async () => {
    let failure: { error: unknown } | undefined
    for (const conn of [...ctx.conns]) {
      const marked = held.get(conn)
      held.delete(conn)
      if (marked) for (const topic of marked) if (!conn.topics.has(topic)) stopLoading(conn, topic)
      // Topics a subscribe is reading are left to it.
      const topics = [...conn.topics.keys()].filter(
        (topic) => marked?.has(topic) || !conn.loading?.has(topic),
      )
      if (conn.closed || topics.length === 0) continue
      for (const topic of topics) if (!marked?.has(topic)) startLoading(conn, topic)
      const now = Date.now()
      try {
        const lists = await Promise.all(topics.map((topic) => store.pending(topic, conn.clientId, now)))
        const pushed = awaitingAck(conn)
        finishAll(
          conn,
          topics,
          pushed.size === 0 ? lists : lists.map((list) => list.filter((message) => !pushed.has(message.id))),
        )
      } catch (error) {
        // What came live meanwhile goes out rather than wait for a recovery that may not come.
        finishAll(conn, topics, [])
        failure ??= { error }
      }
    }
    if (failure) throw failure.error
  }

  let redelivering = false
  let redeliverAgain = false
  const recovered = () => {
    if (redelivering) {
      redeliverAgain = true
      return
    }
    redelivering = true
    const run = (): Promise<void> =>
      redeliver()
        .catch(ctx.failed)
        .then(() => {
          if (!redeliverAgain) return
          redeliverAgain = false
          return run()
        })
    run().finally(() => {
      redelivering = false
    })
  }

  return { subscribe, unsubscribe, subscribeAll, publish, publishAll, fanOut, recovering, recovered }
}

/** The subscription id the SDK computes itself: sha256(topic + clientId), hex. */
export function subscriptionId(topic: string, clientId: string) {
  return createHash('sha256')
    .update(topic + clientId)
    .digest('hex')
}
