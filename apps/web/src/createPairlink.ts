import { createClient, type DappClient, dappActions } from '@pairlink/client'
import { close, open, setStatus } from '@pairlink/modal'
import { BLOCK_POLLING_INTERVAL_MS, createProvider, type Provider } from '@pairlink/provider'
import { createPublicClient, createWalletClient, custom, type PublicClient, type WalletClient } from 'viem'
import type { AppConfig } from './hooks/useConfig.js'

/** The session client, its EIP-1193 provider and the viem clients over it: one set per page. */
export type Pairlink = {
  client: DappClient
  provider: Provider
  publicClient: PublicClient
  walletClient: WalletClient
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
    modal: { open, close, setStatus },
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
  const pairlink: Pairlink = {
    client,
    provider,
    publicClient: createPublicClient({ transport: custom(provider) }),
    // No retries: a retried signing request would ask the person twice.
    walletClient: createWalletClient({ transport: custom(provider, { retryCount: 0 }) }),
    config,
  }
  instances.set(key, pairlink)
  return pairlink
}
