// WalletConnect's hosted network: the relay phone wallets listen on and the wallet explorer (shared/protocol/
// walletconnect-network.md). Constants only: every part that pairs through the network imports them from here.

/**
 * WalletConnect's hosted v2 relay: where the phone wallets shipping today subscribe to pairing topics. It needs a
 * project id from WalletConnect's dashboard (https://dashboard.reown.com) and checks the page's origin against that
 * project's allow-list. A `projectId` without a `relayUrl` means this relay.
 */
export const WALLETCONNECT_RELAY_URL = 'wss://relay.walletconnect.org'

/** WalletConnect's wallet explorer API (`GET /getWallets`, `GET /getWalletImage/{image_id}`; needs the project id). */
export const WALLETCONNECT_EXPLORER_URL = 'https://api.web3modal.org'

/**
 * The close code WalletConnect's relay refuses a socket with ("Project ID is missing", "Project not found",
 * "Unauthorized: origin not allowed"): a client must not reconnect after it, as the relay will refuse again.
 */
export const RELAY_REFUSAL_CLOSE_CODE = 3000

/** Where a person creates a project id and edits its allowed origins. */
export const WALLETCONNECT_DASHBOARD_URL = 'https://dashboard.reown.com'

/** Why a relay refused a client, read from its words by {@link getRelayRefusalKind}: what the operator must fix. */
export type RelayRefusalKind = 'project-missing' | 'project-unknown' | 'origin' | 'other'

/**
 * Whether a close code is a relay's refusal: WalletConnect's 3000, or the 4000–4999 range kept for applications. The
 * relay would refuse a new socket the same way, so a client must not reconnect by itself after one.
 */
export function isRelayRefusalCode(code: unknown): code is number {
  return typeof code === 'number' && (code === RELAY_REFUSAL_CLOSE_CODE || (code >= 4000 && code <= 4999))
}

/**
 * The kind of a refusal from the relay's words, case-insensitive (WalletConnect's relay: "Project ID is missing",
 * "Project not found", "Unauthorized: origin not allowed").
 * @example
 * getRelayRefusalKind('Unauthorized: origin not allowed') // 'origin'
 */
export function getRelayRefusalKind(reason: string): RelayRefusalKind {
  if (/project id is missing|missing project/i.test(reason)) return 'project-missing'
  if (/project not found|invalid project|unknown project/i.test(reason)) return 'project-unknown'
  if (/origin/i.test(reason)) return 'origin'
  return 'other'
}
