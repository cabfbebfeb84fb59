import type { CreateClientParameters, ModalAdapter } from '@pairlink/client'
import { createEmitter, RpcError, V1_ERRORS } from '@pairlink/protocol'
import { type Block, createBlockTracker } from './blockTracker.js'
import { BLOCK_POLLING_INTERVAL_MS } from './constants.js'
import {
  ChainDisconnectedError,
  type ConnectionRefusedError,
  DisconnectedError,
  UnsupportedMethodError,
} from './errors.js'
import { createHttpConnection, type HttpConnection, type RequestArguments } from './httpConnection.js'
import { createLegacySend, type LegacySend } from './legacySend.js'
import type { Log } from './logSubscription.js'
import { createLogSubscriptionLoader } from './logSubscriptionLoader.js'
import type { RequestStatusEvents } from './requestStatus.js'
import { rethrowLater } from './rethrowLater.js'
import { connectSession, getClient, type ProviderClient } from './session.js'
import type { V2Client } from './v2Client.js'
import { isWalletMethod, sendToWallet, targetChain } from './walletRequest.js'

/** Parameters of {@link createProvider}. Either `client` or `bridge` is required. */
export type CreateProviderParameters = {
  /** A session client in the dapp role. */
  client?: ProviderClient | undefined
  /** The bridge URL: the provider creates its own client (with `modal` and `clientParameters`). */
  bridge?: string | undefined
  /**
   * The WalletConnect generation of the client the provider creates: v1 over `bridge`, v2 over `relayUrl` (its code
   * is then imported on creation, in a chunk of its own).
   * @default 2 when `relayUrl` or `projectId` is given without `bridge`, else 1
   */
  version?: 1 | 2 | undefined
  /**
   * The WalletConnect v2 relay (`ws:`/`wss:`) of a v2 client.
   * @default WalletConnect's relay (`wss://relay.walletconnect.org`) with a `projectId`, else the page's own server
   */
  relayUrl?: string | undefined
  /**
   * A project id from https://dashboard.reown.com: without `relayUrl`, the provider pairs through WalletConnect's
   * network (where phone wallets listen). Also sent to a Pairlink relay that serves configured projects.
   */
  projectId?: string | undefined
  /** The QR-code modal `enable()` opens (ignored with `client`: give it to the client). */
  modal?: ModalAdapter | undefined
  /** More options for the client the provider creates (storage, clientMeta, …; v2 reads clientMeta, modalOptions, storage, WebSocket, reconnect). */
  clientParameters?: Omit<CreateClientParameters, 'bridge' | 'modal'> | undefined
  /** JSON-RPC node URL per chain id. The wallet's own `rpcUrl` for the session's chain comes first. */
  rpc?: Record<number, string> | undefined
  /** JSON-RPC node URL for any chain missing from `rpc`. */
  rpcUrl?: string | undefined
  /**
   * The chain asked for when connecting, and the chain reads go to before a wallet is connected.
   * @default 1
   */
  chainId?: number | undefined
  /**
   * Milliseconds between two block polls (×4 while the page is hidden).
   * @default 4000
   */
  pollingInterval?: number | undefined
  /**
   * Time-out of one HTTP JSON-RPC request, in milliseconds.
   * @default 60000
   */
  timeout?: number | undefined
  /**
   * Time-out of one request to the wallet (signing, `wallet_*`), in milliseconds: it then rejects with the client's
   * `RequestTimeoutError`, and a late answer is ignored.
   * @default no time-out (the person may take their time)
   */
  walletTimeout?: number | undefined
  /**
   * The `fetch` the HTTP connection uses.
   * @default globalThis.fetch
   */
  fetch?: typeof fetch | undefined
}

/** Events of the provider and their one argument (EIP-1193, plus `block` and `error`). */
export type ProviderEvents = {
  connect: { chainId: string }
  disconnect: RpcError
  chainChanged: string
  accountsChanged: string[]
  /** `eth_subscribe` results: a block (`newHeads`) or a log (`logs`), as geth's pubsub sends them. */
  message: { type: 'eth_subscription'; data: { subscription: string; result: Block | Log } }
  /** Each new block of the polled chain, in order. */
  block: Block
  /** A failed block poll (`Could not find block`, HTTP errors). */
  error: Error
  /** The pairing URI, each time the provider's `modal` is opened with one (a new pairing, a refreshed one). */
  display_uri: string
  /**
   * The v2 relay refused the dapp (a missing or unknown project id, an origin the project does not allow); `enable()`
   * rejects with the same error. No reconnect follows by itself.
   */
  relay_refused: ConnectionRefusedError
} & RequestStatusEvents

type Listener<event extends keyof ProviderEvents> = (payload: ProviderEvents[event]) => void

/** Return type of {@link createProvider}: an EIP-1193 provider. */
export type Provider = LegacySend & {
  /** EIP-1193: sends one call; resolves with its result, rejects with an {@link RpcError}. */
  request(args: RequestArguments): Promise<unknown>
  /** Connects (opening the modal) unless connected; resolves with the accounts. Same as `eth_requestAccounts`. */
  enable(): Promise<string[]>
  /** Ends the session (the wallet is told), stops polling, emits `disconnect`. */
  disconnect(): Promise<void>
  /** EIP-1193: listens to an event; a `block` listener starts polling. */
  on<event extends keyof ProviderEvents>(event: event, listener: Listener<event>): Provider
  /** Listens to the next one of an event only. */
  once<event extends keyof ProviderEvents>(event: event, listener: Listener<event>): Provider
  /** EIP-1193: stops listening. */
  removeListener<event extends keyof ProviderEvents>(event: event, listener: Listener<event>): Provider
  /** The session client. */
  readonly client: ProviderClient
  /** Whether a wallet is connected. */
  readonly connected: boolean
  /** The session's accounts (empty while disconnected). */
  readonly accounts: string[]
  /** The current chain id (the session's when connected). */
  readonly chainId: number
  /** v1 dapps test this flag. */
  readonly isWalletConnect: true
}

const hex = (n: number) => `0x${n.toString(16)}`

/**
 * Creates an EIP-1193 provider over a Pairlink session (reference §7): accounts and chain answered from the
 * session, signing and `wallet_*` sent to the wallet, everything else to the JSON-RPC node over HTTP; new blocks
 * by polling, also as `eth_subscribe('newHeads')`, and their logs as `eth_subscribe('logs', filter)` (`eth_getLogs`).
 *
 * @example
 * const provider = createProvider({ bridge: 'https://bridge.example', modal, rpc: { 1: 'https://rpc.example' } })
 * await provider.enable()
 * const client = createWalletClient({ transport: custom(provider) }) // viem
 */
export function createProvider(parameters: CreateProviderParameters): Provider {
  const { rpc = {}, timeout } = parameters
  const emitter = createEmitter<ProviderEvents>({ onListenerError: rethrowLater })
  const { modal } = parameters
  // The pairing URI as an event too, as WalletConnect's ethereum-provider says it: apps (and kits such as RainbowKit)
  // that draw their own QR code listen for `display_uri`.
  const client = getClient(
    modal
      ? {
          ...parameters,
          modal: {
            ...modal,
            open(uri, onUserClose, options) {
              emitter.emit('display_uri', uri)
              modal.open(uri, onUserClose, options)
            },
          },
        }
      : parameters,
  )

  const connections = new Map<string, HttpConnection>()
  const subscriptions = new Set<string>()
  let chainId = parameters.chainId ?? 1
  let accounts: string[] = []
  let connected = false
  let halted = false
  let subscriptionCount = 0
  let enabling: Promise<string[]> | undefined

  // Reference §7.1 order: the wallet's URL for the session's chain, then `rpc[chainId]`, then `rpcUrl`.
  const rpcUrlFor = (id: number) =>
    (connected && id === client.chainId && client.rpcUrl) || rpc[id] || parameters.rpcUrl

  function http(): HttpConnection {
    const url = rpcUrlFor(chainId)
    if (!url) throw new ChainDisconnectedError(`No RPC Url available for chainId: ${chainId}`)
    let connection = connections.get(url)
    if (!connection) {
      connection = createHttpConnection({ url, timeout, fetch: parameters.fetch })
      connections.set(url, connection)
    }
    return connection
  }

  const logs = createLogSubscriptionLoader({
    request: (args) => http().request(args),
    onLog: (subscription, result) =>
      emitter.emit('message', { type: 'eth_subscription', data: { subscription, result } }),
  })
  const tracker = createBlockTracker({
    request: (args) => http().request(args),
    pollingInterval: parameters.pollingInterval ?? BLOCK_POLLING_INTERVAL_MS,
    onPoll: () => logs.flush(),
    onBlock(block) {
      logs.onBlock(block)
      emitter.emit('block', block)
      for (const subscription of subscriptions) {
        emitter.emit('message', { type: 'eth_subscription', data: { subscription, result: block } })
      }
    },
    onError: (error) => emitter.emit('error', error),
  })

  // Poll while someone wants blocks or a wallet is connected; never after disconnect() until asked again.
  function updatePolling() {
    const wanted = connected || subscriptions.size + logs.size > 0 || emitter.listenerCount('block') > 0
    if (wanted && !halted) tracker.start()
    else tracker.stop()
  }

  function newChain() {
    tracker.reset()
    logs.reset()
  }

  function setChain(next: number) {
    if (next === chainId) return
    chainId = next
    newChain()
    emitter.emit('chainChanged', hex(next))
  }

  function sync(state: { chainId: number; accounts: string[] }) {
    const before = chainId
    halted = false
    if (!connected) {
      connected = true
      // EIP-1193 `connect` carries the chain the provider is connected to, so the chain is updated first.
      if (state.chainId) chainId = state.chainId
      emitter.emit('connect', { chainId: hex(chainId) })
      if (chainId !== before) {
        newChain()
        emitter.emit('chainChanged', hex(chainId))
      }
    } else if (state.chainId) setChain(state.chainId)
    if (state.accounts.length && state.accounts.join() !== accounts.join()) {
      accounts = [...state.accounts]
      emitter.emit('accountsChanged', [...accounts])
    }
    updatePolling()
  }

  function onDisconnect(reason: string) {
    if (!connected) return
    connected = false
    accounts = []
    subscriptions.clear()
    logs.clear()
    tracker.stop()
    emitter.emit('accountsChanged', [])
    emitter.emit(
      'disconnect',
      new DisconnectedError(V1_ERRORS.PROVIDER_CONNECTION_DISCONNECTED, { data: { reason } }),
    )
  }

  client.on('connect', sync)
  client.on('session_update', (update) => {
    if (connected) sync(update)
  })
  client.on('disconnect', ({ message }) => onDisconnect(message))
  if (isV2Client(client)) client.on('relay_refused', (error) => emitter.emit('relay_refused', error))
  // A restored session is connected from the start; tell listeners once they had a chance to subscribe.
  void client.ready.then(() => {
    if (client.connected && !connected) sync(client)
  })

  function enable(): Promise<string[]> {
    // Concurrent calls (a dapp's enable() plus viem's eth_requestAccounts) share one modal and one session.
    enabling ??= connectOnce().finally(() => {
      enabling = undefined
    })
    return enabling
  }

  async function connectOnce(): Promise<string[]> {
    await client.ready
    sync(client.connected ? client : await connectSession(client, chainId))
    return [...accounts]
  }

  async function toWallet(method: string, params: unknown): Promise<unknown> {
    await client.ready
    const result = await sendToWallet({
      client,
      method,
      params,
      connected: connected && client.connected,
      chainId,
      accounts,
      hasRpcUrl: (id) => Boolean(rpcUrlFor(id)),
      timeout: parameters.walletTimeout,
      onStatus: (event) => emitter.emit('requestStatus', event),
    })
    // Trust the wallet's success; its session update with the same chain changes nothing afterwards.
    if (method === 'wallet_switchEthereumChain') setChain(targetChain(params))
    return result
  }

  async function request(args: RequestArguments): Promise<unknown> {
    if (!args || typeof args.method !== 'string') {
      throw new RpcError(V1_ERRORS.MISSING_METHOD, { code: -32600 })
    }
    const { method, params } = args
    switch (method) {
      case 'eth_accounts':
        await client.ready
        return [...accounts]
      case 'eth_requestAccounts':
        return enable()
      case 'eth_coinbase':
        return accounts[0] ?? null
      case 'eth_chainId':
        return hex(chainId)
      case 'net_version':
        return String(chainId)
      case 'eth_subscribe': {
        const [kind, filter] = (params as unknown[] | undefined) ?? []
        if (kind !== 'newHeads' && kind !== 'logs') {
          throw new UnsupportedMethodError(`Unsupported subscription type: ${String(kind)} (eth_subscribe)`)
        }
        const id = hex(++subscriptionCount)
        if (kind === 'logs') await logs.add(id, filter, tracker.latestBlock)
        else subscriptions.add(id)
        halted = false
        updatePolling()
        return id
      }
      case 'eth_unsubscribe': {
        const id = String((params as unknown[] | undefined)?.[0])
        const removed = subscriptions.delete(id) || logs.delete(id)
        updatePolling()
        return removed
      }
      case 'wc_killSession':
        await disconnect()
        return null
    }
    if (isWalletMethod(method)) return toWallet(method, params)
    return http().request({ method, params })
  }

  async function disconnect() {
    if (client.connected) await client.killSession().catch(() => {})
    onDisconnect(V1_ERRORS.SESSION_DISCONNECTED_LOCAL)
    halted = true
    updatePolling()
  }

  const provider: Provider = {
    request,
    enable,
    disconnect,
    ...createLegacySend(request),
    on(event, listener) {
      emitter.on(event, listener)
      if (event === 'block') {
        halted = false
        updatePolling()
      }
      return provider
    },
    once(event, listener) {
      const once: typeof listener = (payload) => {
        provider.removeListener(event, once)
        listener(payload)
      }
      return provider.on(event, once)
    },
    removeListener(event, listener) {
      emitter.off(event, listener)
      if (event === 'block') updatePolling()
      return provider
    },
    client,
    get connected() {
      return connected
    },
    get accounts() {
      return [...accounts]
    },
    get chainId() {
      return chainId
    },
    isWalletConnect: true,
  }
  return provider
}

function isV2Client(client: ProviderClient): client is ProviderClient & Pick<V2Client, 'on'> {
  return (client as { version?: unknown }).version === 2
}
