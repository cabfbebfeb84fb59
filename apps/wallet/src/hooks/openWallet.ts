import type { ClientMeta } from '@pairlink/protocol'
import type { LocalAccount } from 'viem'
import { createWallet } from '../core/createWallet.js'
import { createWalletV2 } from '../core/createWalletV2.js'
import { getLinkVersion } from '../core/pairingLink.js'
import type { SessionWallet } from '../core/sessionWallet.js'
import {
  hasStoredV2Session,
  loadStoredSession,
  REQUESTS_STORAGE_KEY,
  SESSION_STORAGE_KEY,
  V2_STORAGE_KEY,
} from './storedSession.js'
import type { WalletConfig } from './useConfig.js'

/**
 * Makes the wallet for a pasted link (v1 or v2 by the link's version), or restores the one kept in this browser:
 * the v1 session first, else a v2 session. `undefined` when there is nothing to restore. This module brings in the
 * v1 and v2 clients, their crypto and viem's signing: `useWalletSession` imports it only once there is a session
 * to open, so the first screen loads none of it.
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
  // v2: the relay the server names (WalletConnect's with its project id, where the dapps of phone wallets propose),
  // else this page's own server (the sign client's default), which serves /rpc too.
  const v2 = {
    ...common,
    relayUrl: config.relayUrl,
    projectId: config.projectId,
    storageKey: V2_STORAGE_KEY,
    metadata: walletMeta(),
  }
  if (uri !== undefined)
    return getLinkVersion(uri) === 2
      ? createWalletV2({ ...v2, uri })
      : createWallet({ ...v1, uri, clientMeta: walletMeta() })
  const stored = loadStoredSession()
  if (stored) return createWallet({ ...v1, session: stored, clientMeta: walletMeta() })
  if (hasStoredV2Session()) return createWalletV2(v2)
  return undefined
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
