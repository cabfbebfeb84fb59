import { type ConnectReturnType, RequestTimeoutError, type TransportState } from '@pairlink/client'
import type { InjectedWallet } from '@pairlink/modal/injected'
import { type ClientMeta, RpcError, V1_ERRORS } from '@pairlink/protocol'
import type { ProviderClient } from '@pairlink/provider'
import {
  BROWSER_WALLET_KEY,
  forgetBrowserWallet,
  rememberBrowserWallet,
  storedBrowserWallet,
} from './browserWalletStore.js'

/** The session events the app and the provider follow, as a v1 or v2 client emits them. */
type Events = {
  connect: ConnectReturnType
  session_update: { accounts: string[]; chainId: number }
  disconnect: { message: string }
  transport: { state: TransportState }
}

/** A session client over a browser wallet: what {@link createInjectedClient} returns. */
export type InjectedClient = ProviderClient & {
  readonly peerMeta: ClientMeta
  readonly transportState: TransportState
  /** The wallet it talks to. */
  readonly wallet: InjectedWallet
}

/** What the app says when the wallet takes its accounts back (`accountsChanged` with none). */
export const BROWSER_WALLET_ENDED = 'The wallet disconnected this site'

/**
 * A session client over a browser wallet's EIP-1193 provider (EIP-6963 or the legacy `window.ethereum`), with the
 * shape of v1's and v2's dapp clients (`connected`, `accounts`, `chainId`, `connect`, `request`, `killSession`, events
 * `connect` / `session_update` / `disconnect`), so Pairlink's provider and the app treat it as one more session: the
 * same wallet time-out, chain checks and messages. `connect` asks the wallet (`eth_requestAccounts`); the choice is
 * stored, and on the next load `ready` restores the session silently when the wallet still shares an account
 * (`eth_accounts`). There is no socket: `transportState` is always `open`.
 *
 * @example
 * const client = createInjectedClient(wallet)
 * const provider = createProvider({ client, rpcUrl, chainId })
 */
export function createInjectedClient(wallet: InjectedWallet): InjectedClient {
  const { provider, info } = wallet
  const listeners = new Map<string, Set<(payload: never) => void>>()
  const emit = <event extends keyof Events>(event: event, payload: Events[event]) => {
    for (const listener of [...(listeners.get(event) ?? [])])
      (listener as (p: Events[event]) => void)(payload)
  }
  const state = { connected: false, accounts: [] as string[], chainId: 0 }
  const peerMeta: ClientMeta = {
    name: info.name,
    description: '',
    url: '',
    icons: info.icon ? [info.icon] : [],
  }
  const ask = async (method: string, params?: unknown): Promise<unknown> => {
    try {
      return await provider.request(params === undefined ? { method } : { method, params })
    } catch (error) {
      throw toRpcError(error)
    }
  }
  const readChain = async () => Number(await ask('eth_chainId'))
  const end = (message: string, here = true) => {
    if (!state.connected) return
    state.connected = false
    state.accounts = []
    if (here) forgetBrowserWallet()
    emit('disconnect', { message })
  }
  // The app's tabs share the session: Disconnect in another tab (the stored wallet gone or replaced) ends it here too,
  // with the client's local message, as a v1 session does.
  globalThis.addEventListener?.('storage', (event: StorageEvent) => {
    if (event.key === BROWSER_WALLET_KEY && event.newValue !== info.rdns)
      end(V1_ERRORS.SESSION_DISCONNECTED_LOCAL, false)
  })

  // The wallet's own changes: another account, another chain, or the site's access taken back.
  provider.on?.('accountsChanged', ((accounts: string[]) => {
    if (!state.connected) return
    if (!Array.isArray(accounts) || accounts.length === 0) return end(BROWSER_WALLET_ENDED)
    state.accounts = [...accounts]
    emit('session_update', { accounts: [...accounts], chainId: state.chainId })
  }) as (...args: never[]) => void)
  provider.on?.('chainChanged', ((chainId: string) => {
    if (!state.connected || Number(chainId) === state.chainId) return
    state.chainId = Number(chainId)
    emit('session_update', { accounts: [...state.accounts], chainId: state.chainId })
  }) as (...args: never[]) => void)

  // A wallet chosen on an earlier visit: connected again if it still shares an account, without asking.
  const ready = (async () => {
    if (storedBrowserWallet() !== info.rdns) return
    const accounts = (await ask('eth_accounts')) as string[]
    if (!accounts?.length) return forgetBrowserWallet()
    Object.assign(state, { connected: true, accounts: [...accounts], chainId: await readChain() })
  })().catch(() => {})

  let connecting: Promise<ConnectReturnType> | undefined
  const connect = async () => {
    const accounts = (await ask('eth_requestAccounts')) as string[]
    if (!accounts?.length) throw new RpcError('The wallet shared no account', { code: 4001 })
    Object.assign(state, { connected: true, accounts: [...accounts], chainId: await readChain() })
    rememberBrowserWallet(info.rdns)
    const session = { accounts: [...accounts], chainId: state.chainId, peerId: info.uuid, peerMeta }
    emit('connect', session)
    return session
  }

  const rest: Omit<InjectedClient, keyof typeof state> = {
    wallet,
    peerMeta,
    transportState: 'open' as const,
    ready,
    on(event, listener) {
      const set = listeners.get(event) ?? new Set()
      listeners.set(event, set.add(listener as (payload: never) => void))
      return () => void set.delete(listener as (payload: never) => void)
    },
    // One request for accounts at a time: the app asks at once, inside the person's click, and again as it renders.
    connect() {
      connecting ??= connect().finally(() => {
        connecting = undefined
      })
      return connecting
    },
    request: (async ({ method, params }, options) => {
      const answer = ask(method, params)
      const timeout = options?.timeout
      if (timeout === undefined) return answer
      let timer: ReturnType<typeof setTimeout> | undefined
      const late = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new RequestTimeoutError(method, timeout)), timeout)
      })
      return Promise.race([answer, late]).finally(() => clearTimeout(timer))
    }) as InjectedClient['request'],
    async killSession() {
      // EIP-2255: wallets that support it forget the site's access, as their own Disconnect does; others keep it
      // until the person removes the site in the wallet, but the app no longer restores the session.
      void ask('wallet_revokePermissions', [{ eth_accounts: {} }]).catch(() => {})
      end(V1_ERRORS.SESSION_DISCONNECTED_LOCAL)
    },
  }
  // The state is the client's own fields: each change replaces `accounts`, never edits it in place.
  return Object.assign(state, rest)
}

/** A wallet's error as the provider reads errors: an {@link RpcError} with its EIP-1193 code and message. */
function toRpcError(error: unknown): unknown {
  const { code, message, data } = (error ?? {}) as { code?: unknown; message?: unknown; data?: unknown }
  if (error instanceof RpcError || typeof code !== 'number') return error
  return new RpcError(typeof message === 'string' && message ? message : 'The wallet failed', { code, data })
}
