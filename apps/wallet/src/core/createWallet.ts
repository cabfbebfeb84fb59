import {
  type ClientEvents,
  createClient,
  createLocalStorage,
  createMemoryStorage,
  type ReconnectOptions,
  type SessionStorage,
  type WalletClient,
  type WebSocketConstructor,
  walletActions,
} from '@pairlink/client'
import {
  type ClientMeta,
  type JsonRpcRequest,
  PROVIDER_ERROR_CODES,
  RpcError,
  type StoredSession,
} from '@pairlink/protocol'
import type { LocalAccount } from 'viem'
import { findRpcError } from './errors.js'
import { assertPairable } from './pairingLink.js'
import { createPendingRequestStore, PENDING_REQUEST_MAX_AGE_MS } from './pendingRequests.js'
import { createRequestQueue } from './requestQueue.js'
import { answerSessionMethod } from './sessionMethods.js'
import type { SessionWallet, SessionWalletEvents } from './sessionWallet.js'
import { SIGNING_REQUEST_METHODS } from './signingMethods.js'
import { signRequest, USER_REJECTED_MESSAGE, unsupportedMethod } from './signRequest.js'

/** How the wallet answered one call request. `error` never contains a key. */
export type RequestOutcome = {
  id: number
  method: string
  /**
   * `signed`: a signature; `sent`: a broadcast transaction's hash; `approved`: a session-level answer; `rejected`:
   * the person said no (4001); `failed`: approved, but it could not be done (any other error code); `expired`: it
   * waited unanswered in a closed wallet for longer than `pendingMaxAge` (see {@link EXPIRED_MESSAGE}).
   */
  status: 'signed' | 'sent' | 'approved' | 'rejected' | 'failed' | 'expired'
  result?: unknown
  error?: { code: number; message: string }
}

/**
 * Events of a wallet: the client's, plus `answered` after each call request was answered. `call_request` is the
 * wallet's own: each request once (a repeat of an id is dropped), and after a restore first the stored unanswered
 * ones, oldest first.
 */
type WalletEvents = Omit<ClientEvents, 'display_uri' | 'modal_closed'> & {
  answered: RequestOutcome
} & OneClickEvents

/** v2 one-click auth's events: v1 has none, so they never come. */
type OneClickEvents = Pick<SessionWalletEvents, 'session_authenticate' | 'signed_in'>

/** The error a dapp gets for a request that waited in a closed wallet for longer than `pendingMaxAge`. */
export const EXPIRED_MESSAGE =
  'The request expired: the wallet was closed and reopened too late to answer it. Ask again if it is still needed.'

/** Parameters of {@link createWallet}. */
export type CreateWalletParameters = {
  /** A dapp's `wc:` URI to pair with. */
  uri?: string | undefined
  /** A stored session (v1 layout) to restore instead of pairing. */
  session?: StoredSession | undefined
  /** The account offered to dapps and used to sign. */
  account: LocalAccount
  /** The chain offered to dapps. */
  chainId: number
  /** JSON-RPC node transactions are prepared with and broadcast to. */
  rpcUrl: string
  /** @default the client's default (localStorage in browsers, memory in Node) */
  storage?: SessionStorage | false | undefined
  /** Storage key of the session. @default 'walletconnect' (v1's) */
  storageKey?: string | undefined
  /** Storage key of the session's unanswered call requests (same storage). @default `${storageKey}:requests` */
  requestStorageKey?: string | undefined
  /**
   * A stored unanswered request older than this (ms) when the wallet is restored is answered as expired instead of
   * offered again. @default PENDING_REQUEST_MAX_AGE_MS (5 minutes, the web app's wallet time-out)
   */
  pendingMaxAge?: number | undefined
  /** @default the client's default (globalThis.WebSocket, else the `ws` package) */
  WebSocket?: WebSocketConstructor | undefined
  /** What the wallet announces to dapps. */
  clientMeta?: ClientMeta | null | undefined
  reconnect?: ReconnectOptions | undefined
}

/** The wallet role of a v1 session, with signing: a {@link SessionWallet} that also exposes its v1 client. */
export type Wallet = Omit<SessionWallet, 'version' | 'on'> & {
  readonly client: WalletClient
  readonly version: 1
  on<name extends keyof WalletEvents>(
    event: name,
    listener: (payload: WalletEvents[name]) => void,
  ): () => void
}

/**
 * Creates a wallet: pairs with a `wc:` URI (or restores a stored `session`) and answers what the dapp asks with
 * the given account, signing with viem. v1's nudge (`wc:{topic}@1`) throws `IncompleteUriError`, a v2 link
 * `UnsupportedUriError` (see `assertPairable`); any other invalid one the exact v1 text. Call requests the person
 * has not answered are kept with the session (its storage) until they are, so a reopened wallet offers them again.
 *
 * @example
 * const wallet = createWallet({ uri, account: getDevAccount(0), chainId: 31337, rpcUrl })
 * wallet.on('session_request', () => wallet.approveSession())
 * wallet.on('call_request', (request) => wallet.approveRequest(request))
 */
export function createWallet(parameters: CreateWalletParameters): Wallet {
  const { uri, rpcUrl, storageKey = 'walletconnect' } = parameters
  if (uri !== undefined) assertPairable(uri)
  // One storage for the session and its requests (the client's default), so both are restored together.
  const storage = parameters.storage === false ? undefined : (parameters.storage ?? defaultStorage())
  const client = createClient({
    uri,
    session: parameters.session,
    storage: storage ?? false,
    storageKey,
    WebSocket: parameters.WebSocket,
    clientMeta: parameters.clientMeta,
    reconnect: parameters.reconnect,
  }).extend(walletActions)
  let account = parameters.account
  let chainId = client.connected && client.chainId ? client.chainId : parameters.chainId
  const answeredListeners = new Set<(outcome: RequestOutcome) => void>()
  const report = (outcome: RequestOutcome): RequestOutcome => {
    for (const listener of [...answeredListeners]) listener(outcome)
    return outcome
  }

  const queue = createRequestQueue({
    client,
    store: storage
      ? createPendingRequestStore(storage, parameters.requestStorageKey ?? `${storageKey}:requests`)
      : undefined,
    maxAge: parameters.pendingMaxAge ?? PENDING_REQUEST_MAX_AGE_MS,
    async expire(request) {
      // Answered, not dropped: a dapp without a time-out of its own stops waiting too.
      const error = { code: -32603, message: EXPIRED_MESSAGE }
      await client.rejectRequest({ id: request.id, error }).catch(() => {})
      return report({ id: request.id, method: request.method, status: 'expired', error })
    },
  })
  // A request is answered once: a double click or a retry must not sign (or send) twice. It is forgotten as soon
  // as the person decides, so a wallet closed while signing never offers it (nor sends it) again.
  const settle = (request: JsonRpcRequest) => {
    if (!queue.settle(request.id)) throw new Error(`Request ${request.id} was already answered`)
  }

  // The dapp may switch the chain too (wc_sessionUpdate); signing must follow the session.
  client.on('session_update', (update) => {
    if (update.chainId) chainId = update.chainId
  })

  const fail = async (
    request: JsonRpcRequest,
    error: { code: number; message: string },
  ): Promise<RequestOutcome> => {
    const { code, message } = error
    await client.rejectRequest({ id: request.id, error: { code, message } })
    // Only the person's "no" is a rejection; an approved request that could not be done is a failure.
    const status = code === PROVIDER_ERROR_CODES.USER_REJECTED ? 'rejected' : 'failed'
    return report({ id: request.id, method: request.method, status, error: { code, message } })
  }

  const update = async () => {
    if (client.connected) await client.updateSession({ chainId, accounts: [account.address] })
  }

  const wallet: Wallet = {
    client,
    version: 1,
    get connected() {
      return client.connected
    },
    get peerMeta() {
      return client.peerMeta
    },
    get accounts() {
      return client.accounts
    },
    endpoint: client.bridge,
    ready: Promise.resolve(),
    restored: queue.restored,
    get account() {
      return account
    },
    get chainId() {
      return chainId
    },
    on(event, listener) {
      if (event === 'answered') {
        const fn = listener as (outcome: RequestOutcome) => void
        answeredListeners.add(fn)
        return () => answeredListeners.delete(fn)
      }
      if (event === 'call_request') return queue.onRequest(listener as (request: JsonRpcRequest) => void)
      if (event === 'session_authenticate' || event === 'signed_in') return () => {}
      return client.on(event as keyof ClientEvents, listener as never)
    },
    async approveSession(choice = {}) {
      account = choice.account ?? account
      chainId = choice.chainId ?? chainId
      await client.approveSession({ chainId, accounts: [account.address] })
    },
    rejectSession: (message) => client.rejectSession({ message }),
    async approveRequest(request) {
      settle(request)
      try {
        const own = await answerSessionMethod(request, {
          address: account.address,
          chainId,
          switchChain: wallet.setChainId,
        })
        if (own) {
          await client.approveRequest({ id: request.id, result: own.result })
          return report({ id: request.id, method: request.method, status: 'approved', result: own.result })
        }
        if (!(SIGNING_REQUEST_METHODS as readonly string[]).includes(request.method)) {
          return await fail(request, unsupportedMethod(request.method))
        }
        const { status, result } = await signRequest(request, { account, rpcUrl, chainId })
        await client.approveRequest({ id: request.id, result })
        return report({ id: request.id, method: request.method, status, result })
      } catch (error) {
        // A JSON-RPC code anywhere in the chain is the answer the dapp gets; anything else is the wallet's own failure.
        const rpc = findRpcError(error)
        if (rpc) return fail(request, rpc)
        throw error
      }
    },
    async rejectRequest(request) {
      settle(request)
      return fail(request, new RpcError(USER_REJECTED_MESSAGE, { code: PROVIDER_ERROR_CODES.USER_REJECTED }))
    },
    async setAccount(next) {
      account = next
      await update()
    },
    async setChainId(next) {
      chainId = next
      await update()
    },
    disconnect: () => client.killSession(),
    close: () => client.close(),
  }

  return wallet
}

/** The client's own default: `localStorage` in browsers, memory elsewhere. */
function defaultStorage(): SessionStorage {
  return typeof globalThis.localStorage === 'object' && globalThis.localStorage
    ? createLocalStorage()
    : createMemoryStorage()
}
