import {
  type ClientEvents,
  type ConnectReturnType,
  createLocalStorage,
  type ModalAdapter,
  type ReconnectOptions,
  type SessionStorage,
  type TransportState,
  type WebSocketConstructor,
} from '@pairlink/client'
import { type ClientMeta, createEmitter } from '@pairlink/protocol'
import type { Cacao } from '@pairlink/protocol/v2'
import type { ConnectionRefusedError } from './errors.js'
import { rethrowLater } from './rethrowLater.js'
import type { ProviderClient } from './session.js'
import type { SignSession } from './v2/createSignSession.js'

/** Parameters of {@link createV2Client}. */
export type CreateV2ClientParameters = {
  /**
   * The WalletConnect v2 relay (`ws:`/`wss:`).
   * @default WalletConnect's relay (`wss://relay.walletconnect.org`) with a `projectId`, else the page's own server
   */
  relayUrl?: string | undefined
  /**
   * The project id from https://dashboard.reown.com: without `relayUrl`, the dapp pairs through WalletConnect's
   * network, where phone wallets listen. Also sent to a Pairlink relay that serves configured projects.
   */
  projectId?: string | undefined
  /** What the dapp announces to the wallet. @default the page's title and origin in browsers */
  metadata?: ClientMeta | undefined
  /** The QR-code modal `connect` opens; given `onExpired` in its options to swap in a fresh pairing URI. */
  modal?: ModalAdapter | undefined
  /** Passed to `modal.open` as its third argument, with `onExpired` added. */
  modalOptions?: Record<string, unknown> | undefined
  /** More chains to propose besides the one `connect` asks for (optional CAIP-25 namespaces: the wallet picks). */
  chains?: readonly number[] | undefined
  /**
   * Where the sign client keeps its sessions and the provider the chain it is on.
   * @default `localStorage` in browsers, memory in Node
   */
  storage?: SessionStorage | undefined
  /** @default 'pairlink-v2' */
  storageKey?: string | undefined
  /** Seconds a pairing URI stays valid before a fresh one replaces it in the modal. @default 300 (the SDK's) */
  pairingExpiry?: number | undefined
  /** @default globalThis.WebSocket, else the `ws` package */
  WebSocket?: WebSocketConstructor | undefined
  reconnect?: ReconnectOptions | undefined
}

/**
 * The sign-in `connect` asks for with the session (WalletConnect's one-click auth, `wc_sessionAuthenticate`): the
 * wallet signs a CAIP-122 (Sign-In with Ethereum) message per chain with the same approval that connects it.
 */
export type V2AuthenticateParameters = {
  /** The server's single-use nonce, which it checks when the CACAO comes back. */
  nonce: string
  /** The site asking (EIP-4361 `domain`). @default `location.host`, else the metadata URL's host */
  domain?: string | undefined
  /** The page asking (EIP-4361 `uri`, CACAO `aud`). @default `location.origin`, else the metadata URL */
  uri?: string | undefined
  /** The line the wallet shows above the message's fields (a ReCap sentence is appended to it). */
  statement?: string | undefined
  /** When the signed message stops being good (ISO 8601), e.g. the nonce's own expiry. */
  exp?: string | undefined
  /** When the signed message starts being good (ISO 8601). */
  nbf?: string | undefined
  /**
   * The methods the session is for, granted by the CACAO's ReCap (and asked for by the fallback proposal).
   * @default the methods the provider proposes without a sign-in (v1's signing methods and `wallet_watchAsset`)
   */
  methods?: readonly string[] | undefined
  /**
   * The chains the wallet signs for (one CACAO each) and the session is for.
   * @default the chain `connect` asks for, then the client's `chains`
   */
  chains?: readonly number[] | undefined
  /**
   * Checks each CACAO's signature before the session is kept (`message`: the text its account signed); a CACAO that
   * fails ends the connect (`SessionRejectedError`). A dapp whose server verifies the CACAOs itself (smart accounts
   * through its node included) may leave that to the server with `() => true`: the binding to this request (domain,
   * URI, nonce, chains, times) is checked either way.
   * @default an EOA's EIP-191 signature (no chain needed; a smart account's `eip1271` CACAO fails it)
   */
  verifyCacao?: ((cacao: Cacao, message: string) => boolean | Promise<boolean>) | undefined
}

/** Parameters of a {@link V2Client}'s `connect`. */
export type V2ConnectParameters = {
  /** The chain to connect on (the session's chain the provider uses). @default 1 */
  chainId?: number | undefined
  /**
   * Also sign in, with the same approval: a wallet that supports it answers with CACAOs (`cacaos` in the result); one
   * that does not answers the ordinary proposal of the same pairing (no second scan), and `cacaos` is absent.
   */
  authenticate?: V2AuthenticateParameters | undefined
}

/** What a {@link V2Client}'s `connect` resolves with and its `connect` event carries. */
export type V2ConnectReturnType = ConnectReturnType & {
  /**
   * The wallet's signed sign-in messages (CAIP-74 CACAOs, one per chain) when `connect` asked for `authenticate` and
   * the wallet answered it; the dapp's server verifies them (the client checked their signatures and their binding to
   * the request already).
   */
  cacaos?: Cacao[] | undefined
}

/** Events of a {@link V2Client}: v1's client events, and the relay's refusal. */
export type V2ClientEvents = Omit<ClientEvents, 'connect'> & {
  /** The session was approved; with the wallet's CACAOs when it also signed in. */
  connect: V2ConnectReturnType
  /** The relay refused the dapp (project id, origin): no reconnect by itself; the next `connect` tries once more. */
  relay_refused: ConnectionRefusedError
}

/** The state a {@link SignSession} keeps and the thin client reads synchronously. */
export type V2ClientState = {
  connected: boolean
  accounts: string[]
  chainId: number
  peerMeta: ClientMeta | null
  transportState: TransportState
  /** The session's topic while connected. */
  topic: string | undefined
}

/** Return type of {@link createV2Client}: a {@link ProviderClient} over a WalletConnect v2 session. */
export type V2Client = Omit<ProviderClient, 'on' | 'connect'> & {
  readonly version: 2
  /**
   * Opens the modal with a pairing URI (a fresh one each time one expires) and resolves once a wallet connects;
   * with `authenticate` the wallet is asked to sign in with the same approval (WalletConnect's one-click auth).
   * Rejects with `ModalClosedError` when the person closes the modal, `SessionRejectedError` (the wallet's words)
   * when the wallet refuses.
   *
   * @example
   * const { accounts, cacaos } = await client.connect({ chainId: 1, authenticate: { nonce } })
   */
  connect(parameters?: V2ConnectParameters): Promise<V2ConnectReturnType>
  on<event extends keyof V2ClientEvents>(
    event: event,
    listener: (payload: V2ClientEvents[event]) => void,
  ): () => void
  /** The wallet's metadata as v1's `peerMeta`, `null` while disconnected. */
  readonly peerMeta: ClientMeta | null
  readonly transportState: TransportState
  /** Switches to a chain of the session's namespaces (no message to the wallet); 4902 for any other chain. */
  switchChain(chainId: number): Promise<void>
  /** Closes the relay socket; the session stays stored for the next page. */
  close(): Promise<void>
}

/**
 * A session client over WalletConnect v2 with the shape of v1's dapp client (`connected`, `accounts`, `chainId`,
 * `connect`, `request`, `killSession`, events `connect` / `session_update` / `disconnect` / `transport`), so the
 * provider and apps treat both generations alike. The v2 code (`@pairlink/client/v2`, its crypto) is a chunk of its
 * own, imported on creation when `storage` holds a v2 session (`ready` settles once it is restored), else on the first
 * call: a v1-only app never downloads it, and a v2 app's first screen does not wait for it.
 *
 * @example
 * const client = createV2Client({ relayUrl: 'wss://pairlink.example', modal })
 * const provider = createProvider({ client, rpc: { 1: 'https://rpc.example' } })
 */
export function createV2Client(parameters: CreateV2ClientParameters): V2Client {
  const state: V2ClientState = {
    connected: false,
    accounts: [],
    chainId: 0,
    peerMeta: null,
    transportState: 'closed',
    topic: undefined,
  }
  const emitter = createEmitter<V2ClientEvents>({ onListenerError: rethrowLater })

  const key = parameters.storageKey ?? 'pairlink-v2'
  let loading: Promise<SignSession> | undefined
  const load = () => {
    // From now on the sign client hears the other tabs itself (and reads what they stored before).
    wake?.close()
    loading ??= import('./v2/createSignSession.js').then((module) =>
      module.createSignSession({ parameters, state, emit: emitter.emit }),
    )
    return loading
  }
  // The dapp's tabs share its session: another tab's news (it connected) brings the v2 code, which takes the session.
  const shared = parameters.storage ?? (globalThis.localStorage && createLocalStorage())
  const wake = shared?.channel?.(key, () => void load())
  // The v2 code is fetched now only for stored state to act on; a first visit fetches it on `connect`.
  const ready = (async () => {
    const text = await (parameters.storage
      ? parameters.storage.get(key)
      : globalThis.localStorage?.getItem(key))
    // A session to restore, or a disconnect made while the relay was down that the wallet is still to hear of.
    const { sessions, outbox } = JSON.parse(text || '{}') as { sessions?: object; outbox?: object }
    if (Object.keys({ ...sessions, ...outbox }).length > 0) await (await load()).ready
  })().catch(() => {})
  // Calls made while nothing is loaded and nothing is connected load it (to connect, or to fail as v1 does).
  const loaded = async () => {
    await ready
    return load()
  }

  return {
    version: 2,
    get connected() {
      return state.connected
    },
    get accounts() {
      return [...state.accounts]
    },
    get chainId() {
      return state.chainId
    },
    get peerMeta() {
      return state.peerMeta
    },
    get transportState() {
      return state.transportState
    },
    rpcUrl: undefined,
    ready,
    on: emitter.on,
    connect: async (connectParameters) =>
      (await loaded()).connect(connectParameters?.chainId, connectParameters?.authenticate),
    request: async (request, options) => (await loaded()).request(request, options),
    killSession: async () => (await loaded()).killSession(),
    switchChain: async (chainId) => (await loaded()).switchChain(chainId),
    async close() {
      wake?.close()
      await ready
      await (await loading)?.close()
    },
  }
}
