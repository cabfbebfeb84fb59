import { getClientId } from '@pairlink/protocol/v2'
import type { TabChannel } from '../storage.js'
import { SDK_ERRORS } from './errors.js'
import { deleteSession, type Internal, type Outgoing, save, subscribe } from './internal.js'
import type { RelayMessage } from './relayFrames.js'
import type { Session } from './types.js'

/** What a tab tells the others over the storage's channel; `sessions` only after its own state was written. */
type TabMessage =
  /**
   * Sessions settled or changed here, with their keys; sessions ended here (by this side's `disconnect`: its sealed
   * delete, kept by every tab until the relay took it, or `true`); the relay identity the sessions are followed with.
   */
  | {
      sessions: Record<string, { session: Session; key: string }>
      ended: Record<string, boolean | Outgoing>
      seed: string
    }
  /** A request of the peer this tab got from the relay, or an answer no call here waits for. */
  | { frame: RelayMessage }

/** A client's part in sharing its sessions with the other tabs on the same storage (`tabs: true`). */
export type Tabs = {
  channel: TabChannel
  /**
   * Whether this tab answers the peer's requests: with Web Locks, only the tab holding the lock (the others handle
   * them quietly); without, `undefined`, and every tab answers.
   */
  leader: boolean | undefined
  /** Each session as the other tabs last heard of it (JSON), to tell them only what changed. */
  told: Map<string, string>
  /** Sessions this tab's `disconnect` ended and the others have not been told of. */
  ended: Set<string>
  /** The peer's requests handled here (`topic:id`): one that comes from the relay and from a tab is handled once. */
  handled: Set<string>
  release(): void
}

// Requests remembered to handle each once; a session sees a few per minute.
const HANDLED_LIMIT = 500

/**
 * Opens the channel to the other tabs that share the storage (its `channel`, which `localStorage`'s has) and, where
 * the browser has Web Locks, queues for the lock that makes one tab of them the one that answers the peer. Nothing
 * without a channel. `receive` takes the relay's messages another tab passes on.
 */
export function openTabs(internal: Internal, receive: (message: RelayMessage) => void): void {
  const channel = internal.storage?.channel?.(internal.storageKey, (data) => {
    // Structured clones from any script of the origin: only the fields this code posts are read.
    const { frame } = (data ?? {}) as { frame?: unknown }
    if (frame && typeof frame === 'object') return receive(frame as RelayMessage)
    // After the relay's messages before it, as they are handled.
    internal.incoming.add(() => onSessions(internal, data)).catch(() => {})
  })
  if (!channel) return
  const tabs: Tabs = {
    channel,
    leader: undefined,
    told: new Map(),
    ended: new Set(),
    handled: new Set(),
    release() {},
  }
  internal.tabs = tabs
  const locks = (globalThis.navigator as { locks?: LockManager | null } | undefined)?.locks
  if (!locks) return
  tabs.leader = false
  // Held until `close`; a tab that goes away (closed, reloaded) lets the next one in the queue have it.
  void locks.request(`pairlink:${internal.storageKey}`, () => {
    tabs.leader = !internal.closed
    return new Promise<void>((release) => {
      tabs.release = release
      if (internal.closed) release()
    })
  })
}

/** Closes the channel and gives the lock to the next tab. */
export function closeTabs(internal: Internal): void {
  internal.tabs?.channel.close()
  internal.tabs?.release()
  internal.tabs = undefined
}

/** The sessions as stored now are what the other tabs know (the state was just read from the shared storage). */
export function knowSessions(internal: Internal): void {
  for (const [topic, session] of Object.entries(internal.state.sessions))
    internal.tabs?.told.set(topic, JSON.stringify(session))
}

/** Tells the other tabs what changed in the sessions since they last heard (called once the state was written). */
export function tellTabs(internal: Internal): void {
  const { tabs, state } = internal
  if (!tabs) return
  const sessions: Record<string, { session: Session; key: string }> = {}
  const ended: Record<string, boolean | Outgoing> = {}
  for (const [topic, session] of Object.entries(state.sessions)) {
    const text = JSON.stringify(session)
    if (tabs.told.get(topic) === text) continue
    tabs.told.set(topic, text)
    sessions[topic] = { session, key: state.keys[topic] as string }
  }
  for (const topic of tabs.told.keys()) {
    if (state.sessions[topic]) continue
    tabs.told.delete(topic)
    ended[topic] = tabs.ended.has(topic) && (state.outbox[topic] ?? true)
  }
  tabs.ended.clear()
  if (Object.keys(sessions).length + Object.keys(ended).length > 0)
    post(internal, { sessions, ended, seed: state.seed })
}

/**
 * Whether a request of the peer (`id` on `topic`) is new here: remembered, and passed on to the other tabs when it came
 * from the relay (a tab whose socket is down, or that joined later, still hears it).
 */
export function takeRequest(
  internal: Internal,
  message: RelayMessage,
  id: number,
  relayed: boolean,
): boolean {
  const { tabs } = internal
  if (!tabs) return true
  const key = `${message.topic}:${id}`
  if (tabs.handled.has(key)) return false
  // Forgotten all at once when full: a request the peer re-sends minutes later is long answered.
  if (tabs.handled.size >= HANDLED_LIMIT) tabs.handled.clear()
  tabs.handled.add(key)
  if (!relayed) post(internal, { frame: message })
  return true
}

/** Passes on an answer no call of this tab waits for: the relay gave it to this socket only, maybe for another tab. */
export const passOn = (internal: Internal, frame: RelayMessage) => post(internal, { frame })

const post = (internal: Internal, message: TabMessage) => internal.tabs?.channel.postMessage(message)

/** Takes the sessions another tab settled, changed or ended: this tab follows (events as if it had heard them). */
async function onSessions(internal: Internal, data: unknown): Promise<void> {
  const { sessions, ended, seed } = (data ?? {}) as Partial<Record<string, unknown>>
  await internal.ready
  const { state, tabs, emitter } = internal
  if (!tabs || internal.closed) return
  // One relay identity for all tabs (two that started at once made one each; the smaller wins, whoever hears first):
  // the relay never hands a tab what another one published, and acks count for all.
  const theirs = typeof seed === 'string' && /^[0-9a-f]{64}$/.test(seed) ? seed : state.seed
  if (theirs < state.seed) {
    state.seed = theirs
    internal.clientId = await getClientId(theirs)
    internal.relay.reopen()
    save(internal)
  } else if (theirs > state.seed) post(internal, { sessions: {}, ended: {}, seed: state.seed })
  type Told = Partial<{ session: Session; key: unknown }> | null
  for (const [topic, told] of Object.entries((sessions ?? {}) as Record<string, Told>)) {
    const { session, key } = told ?? {}
    if (typeof key !== 'string' || !session || session.topic !== topic) continue
    const known = state.sessions[topic]
    tabs.told.set(topic, JSON.stringify(session))
    state.sessions[topic] = session
    state.keys[topic] = key
    save(internal)
    if (!known) {
      // This tab's socket follows the session from now on (it opens if this tab had none).
      subscribe(internal, topic).catch(() => {})
      emitter.emit('session_connect', { session, tab: true })
    } else if (JSON.stringify(known.namespaces) !== JSON.stringify(session.namespaces))
      emitter.emit('session_update', { id: 0, topic, params: { namespaces: session.namespaces } })
  }
  for (const [topic, self] of Object.entries((ended ?? {}) as Record<string, unknown>)) {
    if (!state.sessions[topic]) continue
    tabs.told.delete(topic)
    // Kept here too: whichever tab writes the storage last, a reload still sends it (the peer drops a second copy).
    if (self && typeof self === 'object') state.outbox[topic] ??= self as Outgoing
    deleteSession(internal, topic, SDK_ERRORS.USER_DISCONNECTED)
    emitter.emit('session_delete', { id: 0, topic, ...(self ? { tab: true as const } : {}) })
  }
}
