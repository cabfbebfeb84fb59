import { type ConnectReturnType, createClient, type DappClient, dappActions } from '@pairlink/client'
import type { InjectedWallet, InjectedWalletInfo } from '@pairlink/modal/injected'
import {
  BLOCK_POLLING_INTERVAL_MS,
  createProvider,
  createV2Client,
  type Provider,
  type ProviderClient,
  type V2ConnectParameters,
} from '@pairlink/provider'
import { listChains } from './format.js'
import type { AppConfig } from './hooks/useConfig.js'
import { createInjectedClient } from './injected/injectedClient.js'
import { lazyModal, showModalError } from './lazyModal.js'
import type { Protocol } from './protocolChoice.js'

/** What the app reads of a session client, v1's (`@pairlink/client`) or v2's (`createV2Client`) alike. */
type SessionClient = Pick<
  DappClient,
  'connected' | 'accounts' | 'chainId' | 'peerMeta' | 'transportState' | 'ready' | 'on'
> & {
  /** `authenticate` (a sign-in with the connection) is for v2's client only; the app gives it to no other. */
  connect(parameters?: V2ConnectParameters): Promise<ConnectReturnType>
}

/**
 * The session client and its EIP-1193 provider: one set per page and protocol. wagmi over the provider comes with
 * the connected view (`wagmiConfig.ts`), so the first screen does not load viem's actions.
 */
export type Pairlink = {
  client: SessionClient
  provider: Provider
  config: AppConfig
  /**
   * The WalletConnect generation of the session: 1 over the bridge, 2 over the relay. A browser wallet's session says
   * 1: like a v1 wallet, the wallet holds the chain and is asked to switch it.
   */
  protocol: Protocol
  /** Set for a session with a browser wallet (EIP-6963 or `window.ethereum`) instead of one paired by QR code. */
  browserWallet?: InjectedWalletInfo | undefined
  /** Says in the modal, in place of the code, that the relay refused the site (`ERR_RELAY_REFUSED`). */
  showRefusal?: ((message: string) => void) | undefined
}

/**
 * Who hears of a browser wallet chosen in the modal (`Dapp` in App.tsx, while it is mounted). The modal's list is
 * offered in every pairing, so the choice goes through this one slot.
 */
let onBrowserWallet: ((wallet: InjectedWallet) => void) | undefined

/**
 * Hands the browser wallets chosen in the modal to `handler` until the returned function is called.
 *
 * @example
 * useEffect(() => handleBrowserWallets((wallet) => use(wallet)), [])
 */
export function handleBrowserWallets(handler: (wallet: InjectedWallet) => void): () => void {
  onBrowserWallet = handler
  return () => {
    if (onBrowserWallet === handler) onBrowserWallet = undefined
  }
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
    theme: 'auto' as const,
    language: globalThis.document?.documentElement.lang,
    // The page's browser wallets (EIP-6963), offered beside the QR code: the one chosen takes over from the pairing.
    onInjected: (wallet: InjectedWallet) => onBrowserWallet?.(wallet),
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
  const pairlink: Pairlink = {
    client,
    provider: appProvider(config, client),
    config,
    protocol,
    showRefusal: (message) => showModalError(message, modalOptions),
  }
  instances.set(key, pairlink)
  return pairlink
}

const browserWallets = new WeakMap<InjectedWallet, Pairlink>()

/**
 * The session with a browser wallet, as {@link createPairlink} makes one with a paired wallet: a client over the
 * wallet's provider (`injected/injectedClient.ts`) and the app's provider over it, so reads still go to the app's node
 * and every request gets the same checks, time-out and messages. Made once per wallet.
 *
 * @example
 * const pairlink = createBrowserWalletPairlink(config, wallet)
 * void pairlink.client.connect() // inside the click: the wallet may open its window only then
 */
export function createBrowserWalletPairlink(config: AppConfig, wallet: InjectedWallet): Pairlink {
  let pairlink = browserWallets.get(wallet)
  if (!pairlink) {
    const client = createInjectedClient(wallet)
    pairlink = {
      client,
      provider: appProvider(config, client),
      config,
      protocol: 1,
      browserWallet: wallet.info,
    }
    browserWallets.set(wallet, pairlink)
  }
  return pairlink
}

/** The app's provider over a session client: its node for reads, its block polling and its wallet time-out. */
function appProvider(config: AppConfig, client: ProviderClient): Provider {
  return createProvider({
    client,
    rpcUrl: config.rpcUrl,
    chainId: config.chainId,
    // The provider's default (×4 while the tab is hidden): an idle tab stays quiet; confirmations count per poll.
    pollingInterval: BLOCK_POLLING_INTERVAL_MS,
    // A wallet closed mid-request never answers: every card stops waiting and says so.
    walletTimeout: walletTimeout(),
  })
}
