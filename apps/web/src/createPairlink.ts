import { createClient, type DappClient, dappActions } from '@pairlink/client'
import { BLOCK_POLLING_INTERVAL_MS, createProvider, createV2Client, type Provider } from '@pairlink/provider'
import { listChains } from './format.js'
import type { AppConfig } from './hooks/useConfig.js'
import { lazyModal } from './lazyModal.js'
import type { Protocol } from './protocolChoice.js'

/** What the app reads of a session client, v1's (`@pairlink/client`) or v2's (`createV2Client`) alike. */
type SessionClient = Pick<
  DappClient,
  'connected' | 'accounts' | 'chainId' | 'peerMeta' | 'transportState' | 'ready' | 'on' | 'connect'
>

/**
 * The session client and its EIP-1193 provider: one set per page and protocol. wagmi over the provider comes with
 * the connected view (`wagmiConfig.ts`), so the first screen does not load viem's actions.
 */
export type Pairlink = {
  client: SessionClient
  provider: Provider
  config: AppConfig
  /** The WalletConnect generation of the session: 1 over the bridge, 2 over the relay. */
  protocol: Protocol
}

const instances = new Map<string, Pairlink>()

/** How long the app waits for the wallet to answer one request (sign, pay, switch chain, sign in): 5 minutes. */
export const WALLET_TIMEOUT_MS = 5 * 60_000

/**
 * The wallet time-out of this page: {@link WALLET_TIMEOUT_MS}, or `?walletTimeout=<ms>` in the page's address (a
 * positive whole number; anything else is ignored), which lets a test see the time-out without waiting minutes.
 *
 * @example
 * walletTimeout('?walletTimeout=2000') // 2000
 */
export function walletTimeout(search: string = globalThis.location?.search ?? ''): number {
  const value = Number(new URLSearchParams(search).get('walletTimeout'))
  return Number.isSafeInteger(value) && value > 0 ? value : WALLET_TIMEOUT_MS
}

/**
 * Creates (once per configuration and protocol) the client, which restores a stored session from `localStorage`, and
 * the provider over it. Cached so React's double-invoked initialisers never open a second socket. The v2 client's
 * code is fetched only when a v2 client is made.
 *
 * @example
 * const { client, provider } = createPairlink(await (await fetch('/api/config')).json(), 2)
 */
export function createPairlink(config: AppConfig, protocol: Protocol = 1): Pairlink {
  const key = JSON.stringify([config, protocol])
  const cached = instances.get(key)
  if (cached) return cached
  const origin = globalThis.location?.origin ?? ''
  const clientMeta = {
    name: 'Pairlink',
    description: 'The Pairlink web app',
    url: origin,
    icons: [`${origin}/icon.svg`],
  }
  // The modal looks like the app: the app's colour scheme (its style sheet declares light and dark, following the
  // system) and the language of its page, not the browser's.
  const modalOptions = {
    registryUrl: config.registryUrl,
    theme: 'auto',
    language: globalThis.document?.documentElement.lang,
  }
  const client =
    protocol === 2
      ? createV2Client({
          relayUrl: config.relayUrl,
          projectId: config.projectId,
          metadata: clientMeta,
          modal: lazyModal,
          modalOptions,
          // The chains the switch menu offers: the wallet approves those it has, and switching among them stays here.
          chains: listChains(config.chainId),
        })
      : createClient({
          bridge: config.bridge,
          clientMeta,
          // The modal is loaded when it first opens: the connect screen does not need it.
          modal: lazyModal,
          modalOptions,
        }).extend(dappActions)
  const provider = createProvider({
    client,
    rpcUrl: config.rpcUrl,
    chainId: config.chainId,
    // The provider's default (×4 while the tab is hidden): an idle tab stays quiet; confirmations count per poll.
    pollingInterval: BLOCK_POLLING_INTERVAL_MS,
    // A wallet closed mid-request never answers: every card stops waiting and says so.
    walletTimeout: walletTimeout(),
  })
  const pairlink: Pairlink = { client, provider, config, protocol }
  instances.set(key, pairlink)
  return pairlink
}
