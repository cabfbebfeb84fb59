import type { StoredSession } from '@pairlink/protocol'

/**
 * Where the wallet keeps its v1 session (v1 layout). Not v1's `walletconnect`: the server serves the dapp and this
 * wallet from one origin, and both would otherwise write the same localStorage key.
 */
export const SESSION_STORAGE_KEY = 'pairlink-wallet:session'
/** Where the session's unanswered call requests wait for a reopened wallet (`core/pendingRequests.ts`). */
export const REQUESTS_STORAGE_KEY = 'pairlink-wallet:requests'
/** Where the v2 client keeps its identity, pairings and sessions (not the web app's `pairlink-v2`: same origin). */
export const V2_STORAGE_KEY = 'pairlink-wallet:v2'

/** The connected v1 session the client stored, if any. */
export function loadStoredSession(): StoredSession | undefined {
  try {
    const stored = JSON.parse(
      localStorage.getItem(SESSION_STORAGE_KEY) ?? 'null',
    ) as Partial<StoredSession> | null
    const valid =
      stored?.connected === true && typeof stored.bridge === 'string' && typeof stored.key === 'string'
    return valid ? (stored as StoredSession) : undefined
  } catch {
    return undefined
  }
}

/** Whether the v2 client kept a session in this browser (read without starting a client: it would open a socket). */
export function hasStoredV2Session(): boolean {
  try {
    const stored = JSON.parse(localStorage.getItem(V2_STORAGE_KEY) ?? 'null') as {
      sessions?: Record<string, unknown>
    } | null
    return Object.keys(stored?.sessions ?? {}).length > 0
  } catch {
    return false
  }
}

/**
 * Whether this browser keeps a session to restore, v1 or v2: read from storage alone, so a first visit never loads
 * the clients (`hooks/openWallet.ts`) just to find nothing.
 */
export const hasStoredSession = (): boolean => loadStoredSession() !== undefined || hasStoredV2Session()
