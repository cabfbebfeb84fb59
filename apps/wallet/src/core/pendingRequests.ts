import type { SessionStorage } from '@pairlink/client'
import type { JsonRpcRequest } from '@pairlink/protocol'
import { isRecord } from './requestParams.js'

/**
 * How old an unanswered request may be when the wallet reopens and still be offered for approval: 5 minutes, the
 * web app's wallet time-out (`WALLET_TIMEOUT_MS` in apps/web). An older one is answered as expired instead: the
 * dapp has most likely stopped waiting, and a signature given long after the question is not what was asked for.
 */
export const PENDING_REQUEST_MAX_AGE_MS = 5 * 60_000

/** A call request the person has not answered yet, and when the wallet received it (ms since the epoch). */
export type PendingRequest = { request: JsonRpcRequest; receivedAt: number }

/**
 * The unanswered call requests of one session, kept in the session's storage so a reopened wallet can still answer
 * them. Only what answering needs is stored: id, method, params (never logged) and when the request came.
 */
export type PendingRequestStore = {
  /** The stored requests of the session with `peerId`, oldest first; `[]` when the stored ones belong to another. */
  load(peerId: string): Promise<PendingRequest[]>
  /** Replaces the stored requests of the session with `peerId` (an empty list removes the entry). */
  save(peerId: string, requests: readonly PendingRequest[]): Promise<void>
}

/** What is stored: the session's peer (the dapp's topic), so requests never outlive or cross sessions. */
type Stored = {
  peerId: string
  requests: { id: number; method: string; params: unknown[]; receivedAt: number }[]
}

/**
 * Creates the store of unanswered requests under `key` of `storage` (the same storage as the session). A storage
 * that fails costs only the restore after a reload, never the live session.
 *
 * @example
 * const store = createPendingRequestStore(createLocalStorage(), 'pairlink-wallet:requests')
 */
export function createPendingRequestStore(storage: SessionStorage, key: string): PendingRequestStore {
  return {
    async load(peerId) {
      let text: string | null | undefined
      try {
        text = await storage.get(key)
      } catch {
        return []
      }
      const stored = parseStored(text)
      if (!stored || stored.peerId !== peerId) return []
      return stored.requests.map(({ id, method, params, receivedAt }) => ({
        request: { id, jsonrpc: '2.0', method, params },
        receivedAt,
      }))
    },
    async save(peerId, requests) {
      try {
        if (requests.length === 0) return await storage.remove(key)
        const value: Stored = {
          peerId,
          requests: requests.map(({ request: { id, method, params }, receivedAt }) => ({
            id,
            method,
            params,
            receivedAt,
          })),
        }
        await storage.set(key, JSON.stringify(value))
      } catch {}
    },
  }
}

/** The stored value, or `undefined` when it is missing or not what this store writes (a broken entry is ignored). */
function parseStored(text: string | null | undefined): Stored | undefined {
  if (!text) return undefined
  try {
    const value: unknown = JSON.parse(text)
    if (!isRecord(value) || typeof value.peerId !== 'string' || !Array.isArray(value.requests))
      return undefined
    const requests = value.requests.filter(
      (entry): entry is Stored['requests'][number] =>
        isRecord(entry) &&
        typeof entry.id === 'number' &&
        typeof entry.method === 'string' &&
        Array.isArray(entry.params) &&
        typeof entry.receivedAt === 'number',
    )
    return { peerId: value.peerId, requests }
  } catch {
    return undefined
  }
}
