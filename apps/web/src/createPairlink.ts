import { createClient, type DappClient, dappActions } from '@pairlink/client'
import { BLOCK_POLLING_INTERVAL_MS, createProvider, type Provider } from '@pairlink/provider'
import type { AppConfig } from './hooks/useConfig.js'
import { lazyModal } from './lazyModal.js'

/**
 * The session client and its EIP-1193 provider: one set per page. The viem clients over the provider come with the
 * connected view (`viemClients.ts`), so the first screen does not load viem's actions.
 */
export type Pairlink = {
  client: DappClient
  provider: Provider
  config: AppConfig
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
 * Creates (once per configuration) the client, which restores a stored session from `localStorage`, and the
 * provider over it. Cached so React's double-invoked initialisers never open a second bridge socket.
 *
 * @example
 * const { client, provider } = createPairlink(await (await fetch('/api/config')).json())
 */
export function createPairlink(config: AppConfig): Pairlink {
  const key = JSON.stringify(config)
  const cached = instances.get(key)
  if (cached) return cached
  const origin = globalThis.location?.origin ?? ''
  const client = createClient({
    bridge: config.bridge,
    clientMeta: {
      name: 'Pairlink',
      description: 'The Pairlink web app',
      url: origin,
      icons: [`${origin}/icon.svg`],
    },
    // The modal is loaded when it first opens: the connect screen does not need it.
    modal: lazyModal,
    // The modal looks like the app: the app's colour scheme (its style sheet declares light and dark, following the
    // system) and the language of its page, not the browser's.
    modalOptions: {
      registryUrl: config.registryUrl,
      theme: 'auto',
      language: globalThis.document?.documentElement.lang,
    },
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
  const pairlink: Pairlink = { client, provider, config }
  instances.set(key, pairlink)
  return pairlink
}
