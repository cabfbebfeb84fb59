import { createSerialQueue, type StoredSession } from '@pairlink/protocol'

/** Where a client keeps its session: string values under string keys, sync or async. */
export type SessionStorage = {
  get(key: string): string | null | undefined | Promise<string | null | undefined>
  set(key: string, value: string): void | Promise<void>
  remove(key: string): void | Promise<void>
  /**
   * Optional: a channel to the other pages that share this storage (the tabs of one origin), so that a dapp's tabs
   * share one session. `onMessage` gets what the others post, never what this page posts. Without it a client keeps
   * its session to itself.
   */
  channel?(key: string, onMessage: (message: unknown) => void): TabChannel | undefined
}

/** What {@link SessionStorage.channel} returns: a `BroadcastChannel` fits as it is. */
export type TabChannel = {
  postMessage(message: unknown): void
  close(): void
}

/**
 * A storage in memory. Share one between two clients to hand a session over in-process (tests, restarts of a
 * component).
 *
 * @example
 * const storage = createMemoryStorage()
 */
export function createMemoryStorage(): SessionStorage {
  const values = new Map<string, string>()
  return {
    get: (key) => values.get(key),
    set: (key, value) => void values.set(key, value),
    remove: (key) => void values.delete(key),
  }
}

/**
 * The browser's `localStorage`, as v1 uses it (reference §4.7). Storage that throws (private mode, quota, blocked
 * cookies) degrades to not persisting instead of failing the session. The page's own `localStorage` is shared by the
 * origin's tabs, so it comes with a `BroadcastChannel` (named `pairlink:<key>`) between them.
 */
export function createLocalStorage(local: Storage = globalThis.localStorage): SessionStorage {
  return {
    channel(key, onMessage) {
      // Another Storage (sessionStorage, a test double) is not shared between tabs: nothing to follow.
      if (local !== globalThis.localStorage || typeof BroadcastChannel !== 'function') return undefined
      const channel = new BroadcastChannel(`pairlink:${key}`)
      channel.onmessage = (event) => onMessage(event.data)
      // Node (tests, server rendering) would otherwise keep its process alive for a channel nobody closes.
      ;(channel as { unref?: () => void }).unref?.()
      return channel
    },
    get(key) {
      try {
        return local.getItem(key)
      } catch {
        return undefined
      }
    },
    set(key, value) {
      try {
        local.setItem(key, value)
      } catch {}
    },
    remove(key) {
      try {
        local.removeItem(key)
      } catch {}
    },
  }
}

/**
 * A storage in one JSON file (Node): an object of key → value, written to a temporary file and renamed, so a crash
 * never leaves half a session. Created with mode 0600: the file holds the session key.
 *
 * @example
 * const client = createClient({ uri, storage: createFileStorage('./session.json') })
 */
export function createFileStorage(path: string): SessionStorage {
  // `node:fs` is imported on first use, so browser bundles of the client never see it.
  const name = 'node:fs/promises'
  const fs = import(/* @vite-ignore */ name) as Promise<typeof import('node:fs/promises')>
  // Writes are serialised: two quick updates must not interleave their read-modify-write. A failed write rejects
  // its own call, and the next one starts afresh.
  const writing = createSerialQueue()

  async function read(): Promise<Record<string, string>> {
    try {
      const value: unknown = JSON.parse(await (await fs).readFile(path, 'utf8'))
      return typeof value === 'object' && value !== null ? (value as Record<string, string>) : {}
    } catch {
      return {}
    }
  }
  function update(change: (values: Record<string, string>) => void): Promise<void> {
    return writing.add(async () => {
      const values = await read()
      change(values)
      const temporary = `${path}.${process.pid}.tmp`
      await (await fs).writeFile(temporary, JSON.stringify(values), { mode: 0o600 })
      await (await fs).rename(temporary, path)
    })
  }
  return {
    get: async (key) => {
      await writing.idle()
      return (await read())[key]
    },
    set: (key, value) =>
      update((values) => {
        values[key] = value
      }),
    remove: (key) =>
      update((values) => {
        delete values[key]
      }),
  }
}

/** Parses a stored v1 session; `undefined` unless it is JSON of an object with a `bridge` (v1's own test). */
export function parseStoredSession(text: string | null | undefined): StoredSession | undefined {
  if (!text) return undefined
  try {
    const value = JSON.parse(text) as Partial<StoredSession> | null
    if (!value || typeof value !== 'object' || typeof value.bridge !== 'string') return undefined
    if (typeof value.key !== 'string' || typeof value.clientId !== 'string') return undefined
    return value as StoredSession
  } catch {
    return undefined
  }
}

/** The fields of a stored session, in v1's key order (reference §4.7). */
const STORED_SESSION_KEYS = [
  'connected',
  'accounts',
  'chainId',
  'bridge',
  'key',
  'clientId',
  'clientMeta',
  'peerId',
  'peerMeta',
  'handshakeId',
  'handshakeTopic',
] as const

/** The session fields of `source` in v1's layout and key order, so a v1 client restores it too. */
export function pickStoredSession(source: StoredSession): StoredSession {
  return Object.fromEntries(STORED_SESSION_KEYS.map((key) => [key, source[key]])) as StoredSession
}

/** Serialises a session in v1's layout and key order. */
export function formatStoredSession(session: StoredSession): string {
  return JSON.stringify(pickStoredSession(session))
}
