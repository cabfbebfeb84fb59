import type { ClientMeta, StoredSession } from '@pairlink/protocol'
import type { LocalAccount } from 'viem'
import { createWallet } from '../core/createWallet.js'
import { createWalletV2 } from '../core/createWalletV2.js'
import { getLinkVersion } from '../core/pairingLink.js'
import { PENDING_REQUEST_MAX_AGE_MS } from '../core/pendingRequests.js'
import type { SessionWallet } from '../core/sessionWallet.js'
import type { WalletConfig } from './useConfig.js'

/**
 * Where the wallet keeps its v1 session (v1 layout). Not v1's `walletconnect`: the server serves the dapp and this
 * wallet from one origin, and both would otherwise write the same localStorage key.
 */
const SESSION_STORAGE_KEY = 'pairlink-wallet:session'
/** Where the session's unanswered call requests wait for a reopened wallet (`core/pendingRequests.ts`). */
const REQUESTS_STORAGE_KEY = 'pairlink-wallet:requests'
/** Where the v2 client keeps its identity, pairings and sessions (not the web app's `pairlink-v2`: same origin). */
const V2_STORAGE_KEY = 'pairlink-wallet:v2'

/**
 * Makes the wallet for a pasted link (v1 or v2 by the link's version), or restores the one kept in this browser:
 * the v1 session first, else a v2 session. `undefined` when there is nothing to restore.
 *
 * @example
 * const wallet = openWallet({ uri, config, account })
 */
export function openWallet(parameters: {
  uri?: string | undefined
  config: WalletConfig
  account: LocalAccount
}): SessionWallet | undefined {
  const { uri, config, account } = parameters
  const common = { account, chainId: config.chainId, rpcUrl: config.rpcUrl }
  const v1 = { ...common, storageKey: SESSION_STORAGE_KEY, requestStorageKey: REQUESTS_STORAGE_KEY }
  // v2: the relay is this page's own server (the sign client's default), which serves /rpc too.
  const v2 = { ...common, storageKey: V2_STORAGE_KEY, metadata: walletMeta() }
  if (uri !== undefined)
    return getLinkVersion(uri) === 2
      ? createWalletV2({ ...v2, uri })
      : createWallet({ ...v1, uri, clientMeta: walletMeta() })
  const stored = loadStoredSession()
  if (stored) return createWallet({ ...v1, session: stored, clientMeta: walletMeta() })
  if (hasStoredV2Session()) return createWalletV2(v2)
  return undefined
}

/** The connected v1 session the client stored, if any. */
function loadStoredSession(): StoredSession | undefined {
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
function hasStoredV2Session(): boolean {
  try {
    const stored = JSON.parse(localStorage.getItem(V2_STORAGE_KEY) ?? 'null') as {
      sessions?: Record<string, unknown>
    } | null
    return Object.keys(stored?.sessions ?? {}).length > 0
  } catch {
    return false
  }
}

/** The status line after a restore that brought back unanswered requests, or found some too old to answer. */
export function restoredText(dapp: string, waiting: number, expired: number): string {
  const count = (n: number) => (n === 1 ? 'One request' : `${n} requests`)
  let text = `Session with ${dapp} restored.`
  if (waiting > 0) {
    text += ` ${count(waiting)} you had not answered ${waiting === 1 ? 'is' : 'are'} waiting for you.`
  }
  if (expired > 0) {
    const minutes = PENDING_REQUEST_MAX_AGE_MS / 60_000
    text += ` ${count(expired)} waited more than ${minutes} minutes and expired; ${dapp} was told.`
  }
  return text
}

/** What this wallet announces to dapps. */
function walletMeta(): ClientMeta {
  const base = `${location.origin}/wallet`
  return {
    name: 'Pairlink Wallet',
    description: 'The Pairlink reference wallet for the dev chain',
    url: base,
    icons: [`${base}/icon.svg`],
  }
}
