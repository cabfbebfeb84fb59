import type { ReconnectOptions, SessionStorage, WebSocketConstructor } from '@pairlink/client'
import {
  approve,
  createSignClient,
  disconnect,
  emit,
  getSessions,
  type Metadata,
  type Proposal,
  pair,
  reject,
  respond,
  SDK_ERRORS,
  type Session,
  update,
} from '@pairlink/client/v2'
import { type JsonRpcRequest, PROVIDER_ERROR_CODES } from '@pairlink/protocol'
import type { LocalAccount } from 'viem'
import { getChainOptions } from './chains.js'
import type { RequestOutcome } from './createWallet.js'
import { createEmitter } from './emitter.js'
import { findRpcError } from './errors.js'
import { buildNamespaces, getSessionChains, parseCaipChain, summarizeProposal } from './namespaces.js'
import { answerRequest } from './sessionMethods.js'
import {
  OWN_DISCONNECT_MESSAGE,
  PEER_DISCONNECT_MESSAGE,
  type SessionWallet,
  type SessionWalletEvents,
  toClientMeta,
} from './sessionWallet.js'
import { USER_REJECTED_MESSAGE } from './signRequest.js'

/** Parameters of {@link createWalletV2}. */
export type CreateWalletV2Parameters = {
  /** A dapp's `wc:…@2` URI to pair with; without it, the session kept in `storage` is restored. */
  uri?: string | undefined
  /** The v2 relay (`ws(s)://…`). @default the page's own server in browsers */
  relayUrl?: string | undefined
  account: LocalAccount
  /** The wallet's own chain: granted first, and the one its node (`rpcUrl`) serves. */
  chainId: number
  rpcUrl: string
  /** The chains granted when the dapp asks for them. @default the wallet's chain and the chains it names */
  supportedChains?: readonly number[] | undefined
  /** @default the client's (localStorage in browsers, memory in Node); `false` keeps nothing */
  storage?: SessionStorage | false | undefined
  /** @default 'pairlink-wallet:v2' */
  storageKey?: string | undefined
  WebSocket?: WebSocketConstructor | undefined
  metadata: Metadata
  reconnect?: ReconnectOptions | undefined
}

const nothingRestored = () => ({ requests: [], expired: [] })

/**
 * Creates a WalletConnect v2 wallet on `@pairlink/client/v2`: pairs with a `wc:…@2` URI (or restores its stored
 * session), grants the eip155 chains asked for that it supports with the methods it implements, and answers
 * requests with the same signing core as v1 (`signRequest`), on each request's own chain. Its events are v1's.
 *
 * @example
 * const wallet = createWalletV2({ uri, relayUrl, account, chainId: 31337, rpcUrl, metadata })
 * wallet.on('session_request', () => wallet.approveSession())
 */
export function createWalletV2(parameters: CreateWalletV2Parameters): SessionWallet {
  const { rpcUrl, storageKey = 'pairlink-wallet:v2' } = parameters
  const client = createSignClient({ ...parameters, storageKey })
  const supported = new Set(parameters.supportedChains ?? getChainOptions(parameters.chainId))
  const emitter = createEmitter<SessionWalletEvents>()
  let account = parameters.account
  let chainId = parameters.chainId
  let chains: number[] = []
  let session: Session | undefined
  let proposal: Proposal | undefined
  /** Requests not answered yet, by id: their topic and chain; `seen`: every id offered, each offered once. */
  const pending = new Map<number, { topic: string; chainId: number }>()
  const seen = new Set<number>()

  const report = (outcome: RequestOutcome) => {
    emitter.emit('answered', outcome)
    return outcome
  }
  const end = (message: string) => {
    session = undefined
    proposal = undefined
    pending.clear()
    emitter.emit('disconnect', { message })
  }

  client.on('transport', (event) => emitter.emit('transport', event))
  client.on('session_proposal', ({ params }) => {
    proposal = params
    const summary = summarizeProposal(params)
    const asked = summary.evmChains.filter((id) => supported.has(id))
    emitter.emit('session_request', {
      peerMeta: toClientMeta(params.proposer.metadata),
      chainId: asked.includes(chainId) ? chainId : (asked[0] ?? null),
      proposal: summary,
    })
  })
  client.on('proposal_expire', ({ id }) => {
    if (proposal?.id === id) end('The session request expired')
  })
  client.on('session_request', ({ id, topic, params }) => {
    if (topic !== session?.topic || seen.has(id)) return
    seen.add(id)
    pending.set(id, { topic, chainId: parseCaipChain(params.chainId) ?? chainId })
    const { method, params: args } = params.request
    emitter.emit('call_request', { id, jsonrpc: '2.0', method, params: args as unknown[] })
  })
  for (const event of ['session_delete', 'session_expire'] as const)
    client.on(event, ({ topic }) => {
      if (topic === session?.topic) end(PEER_DISCONNECT_MESSAGE)
    })

  const ready = (async () => {
    await client.ready
    if (parameters.uri !== undefined) {
      await pair(client, { uri: parameters.uri })
      return
    }
    // The latest session settled: an older one left in storage is not the wallet's any more.
    const restored = getSessions(client)
      .filter((s) => s.acknowledged)
      .sort((a, b) => b.expiry - a.expiry)[0]
    if (!restored) return
    session = restored
    chains = getSessionChains(restored.namespaces)
    if (!chains.includes(chainId) && chains[0] !== undefined) chainId = chains[0]
  })()
  ready.catch(() => {})

  /** Grants `chains` to `account` again (`wc_sessionUpdate`), and says so locally. */
  const grant = async () => {
    if (!session) return
    await update(client, {
      topic: session.topic,
      namespaces: buildNamespaces({ chains, address: account.address }),
    })
    emitter.emit('session_update', { chainId, accounts: [account.address] })
  }
  const sendEvent = async (name: string, data: unknown) => {
    if (session)
      await emit(client, { topic: session.topic, chainId: `eip155:${chainId}`, event: { name, data } })
  }
  const switchChain = async (next: number) => {
    chainId = next
    if (!session) return
    if (!chains.includes(next)) chains = [...chains, next]
    await grant()
    await sendEvent('chainChanged', next)
  }

  /** Takes a request to answer, once: a double click must not sign (or send) twice. */
  const take = (request: JsonRpcRequest) => {
    const found = pending.get(request.id)
    if (!found) throw new Error(`Request ${request.id} was already answered`)
    pending.delete(request.id)
    return found
  }
  const fail = async (request: JsonRpcRequest, topic: string, error: { code: number; message: string }) => {
    const { code, message } = error
    await respond(client, { topic, response: { id: request.id, jsonrpc: '2.0', error: { code, message } } })
    const status = code === PROVIDER_ERROR_CODES.USER_REJECTED ? 'rejected' : 'failed'
    return report({ id: request.id, method: request.method, status, error: { code, message } })
  }

  return {
    version: 2,
    endpoint: client.relayUrl,
    ready,
    // v2 requests live in the client's memory: a reload cannot answer them (see the README).
    restored: ready.then(nothingRestored, nothingRestored),
    get account() {
      return account
    },
    get chainId() {
      return chainId
    },
    get connected() {
      return session !== undefined
    },
    get peerMeta() {
      const metadata = session?.peer.metadata ?? proposal?.proposer.metadata
      return metadata ? toClientMeta(metadata) : null
    },
    get accounts() {
      return session ? [account.address] : []
    },
    on: emitter.on,
    async approveSession(choice = {}) {
      const asked = proposal
      if (!asked) throw new Error('There is no session request to approve')
      account = choice.account ?? account
      chainId = choice.chainId ?? chainId
      const requested = summarizeProposal(asked).evmChains.filter((id) => supported.has(id))
      chains = [...new Set([chainId, ...requested])]
      const namespaces = buildNamespaces({ chains, address: account.address })
      const { acknowledged } = await approve(client, { id: asked.id, namespaces })
      proposal = undefined
      session = await acknowledged()
      // One session at a time: an older one kept in storage is ended, and its dapp told.
      for (const other of getSessions(client))
        if (other.topic !== session.topic) await disconnect(client, { topic: other.topic }).catch(() => {})
      emitter.emit('connect', {
        peerMeta: toClientMeta(session.peer.metadata),
        chainId,
        accounts: [account.address],
      })
    },
    async rejectSession(message) {
      if (!proposal) throw new Error('There is no session request to reject')
      await reject(client, { id: proposal.id, reason: SDK_ERRORS.USER_REJECTED })
      end(message ?? SDK_ERRORS.USER_REJECTED.message)
    },
    async approveRequest(request) {
      const { topic, chainId: on } = take(request)
      let answer: Awaited<ReturnType<typeof answerRequest>>
      try {
        answer = await answerRequest(request, { account, rpcUrl, chainId: on, switchChain })
      } catch (error) {
        const rpc = findRpcError(error)
        if (rpc) return fail(request, topic, rpc)
        throw error
      }
      const { status, result } = answer
      await respond(client, { topic, response: { id: request.id, jsonrpc: '2.0', result } })
      return report({ id: request.id, method: request.method, status, result })
    },
    async rejectRequest(request) {
      const { topic } = take(request)
      return fail(request, topic, {
        code: PROVIDER_ERROR_CODES.USER_REJECTED,
        message: USER_REJECTED_MESSAGE,
      })
    },
    async setAccount(next) {
      account = next
      if (!session) return
      await grant()
      await sendEvent('accountsChanged', [next.address])
    },
    setChainId: switchChain,
    async disconnect() {
      if (session) await disconnect(client, { topic: session.topic })
      end(OWN_DISCONNECT_MESSAGE)
    },
    close: () => void client.close(),
  }
}
