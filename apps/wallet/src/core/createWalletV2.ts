import type { ReconnectOptions, SessionStorage, WebSocketConstructor } from '@pairlink/client'
import {
  approve,
  createSignClient,
  disconnect,
  emit,
  getPendingRequests,
  getSessions,
  type Metadata,
  type Proposal,
  pair,
  reject,
  SDK_ERRORS,
  type Session,
  SignError,
  update,
} from '@pairlink/client/v2'
import { createEmitter } from '@pairlink/protocol'
import type { LocalAccount } from 'viem'
import { accountSigner } from './buildCacaos.js'
import { getChainOptions } from './chains.js'
import { checkProposal, type ProposalRefusal } from './checkProposal.js'
import { createAuthPrompt } from './createAuthPrompt.js'
import { buildNamespaces, getLatestSession, getSessionChains, summarizeProposal } from './namespaces.js'
import { answerRequest } from './sessionMethods.js'
import {
  AUTH_EXPIRED_MESSAGE,
  DAPP_CANCELLED_MESSAGE,
  OWN_DISCONNECT_MESSAGE,
  PEER_DISCONNECT_MESSAGE,
  type SessionWallet,
  type SessionWalletEvents,
  SIGNED_IN_ONLY_MESSAGE,
  toClientMeta,
} from './sessionWallet.js'
import { createV2Requests } from './v2Requests.js'

/** Parameters of {@link createWalletV2}. */
export type CreateWalletV2Parameters = {
  /** A dapp's `wc:…@2` URI to pair with; without it, the session kept in `storage` is restored. */
  uri?: string | undefined
  /** The v2 relay (`ws(s)://…`). @default the page's own server in browsers */
  relayUrl?: string | undefined
  /** The project id the relay checks (WalletConnect's network needs one). @default none */
  projectId?: string | undefined
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
  /**
   * Answer one-click auth (`wc_sessionAuthenticate`: connect and sign in with one approval). `false`: the wallet does
   * not listen, so the client answers 10001 and the dapp falls back to its ordinary proposal. @default true
   */
  oneClick?: boolean | undefined
}

/**
 * Creates a WalletConnect v2 wallet on `@pairlink/client/v2`: pairs with a `wc:…@2` URI (or restores its stored
 * session), grants the eip155 chains asked for that it supports with the methods it implements (a proposal whose
 * required namespaces ask for more is refused with the spec's error: `approveSession` and `rejectSession` alike, the
 * `session_request` event's `proposal.refused` saying why), and answers requests with the same signing core as v1
 * (`signRequest`), on each request's own chain. Its events are v1's, and v2 one-click auth's: a dapp's sign-in
 * request (`session_authenticate`) is approved or rejected as a proposal is, and its answer makes the session.
 *
 * @example
 * const wallet = createWalletV2({ uri, relayUrl, account, chainId: 31337, rpcUrl, metadata })
 * wallet.on('session_request', () => wallet.approveSession())
 */
export function createWalletV2(parameters: CreateWalletV2Parameters): SessionWallet {
  const { rpcUrl, storageKey = 'pairlink-wallet:v2', oneClick = true } = parameters
  const client = createSignClient({ ...parameters, storageKey })
  const supported = new Set(parameters.supportedChains ?? getChainOptions(parameters.chainId))
  const emitter = createEmitter<SessionWalletEvents>()
  let account = parameters.account
  let chainId = parameters.chainId
  let chains: number[] = []
  let session: Session | undefined
  let proposal: Proposal | undefined
  // Set while the pending proposal requires what this wallet cannot give: it can only be refused.
  let refusal: ProposalRefusal | undefined
  const requests = createV2Requests({ client, emitter, topic: () => session?.topic, chainId: () => chainId })
  const end = (message: string) => {
    session = undefined
    proposal = undefined
    refusal = undefined
    auth.clear()
    requests.clear()
    emitter.emit('disconnect', { message })
  }
  const auth = createAuthPrompt({
    client,
    emitter,
    supportedChains: supported,
    address: () => account.address,
    chainId: () => chainId,
    drop: (message) => {
      if (!session) end(message)
    },
  })

  client.on('transport', (event) => emitter.emit('transport', event))
  client.on('session_proposal', ({ params }) => {
    const { authentication } = params.requests ?? {}
    // A proposal that asks for a sign-in too (the SDK's `connect({ authentication })`) is one approval that connects
    // and signs in, when the wallet takes one-click auth and can grant the session; else an ordinary proposal,
    // approved without CACAOs (the dapp then gets the session alone).
    if (oneClick && authentication && !checkProposal(params, supported))
      return auth.offerProposal({ ...params, requests: { authentication } })
    proposal = params
    refusal = checkProposal(params, supported)
    const summary = { ...summarizeProposal(params), ...(refusal && { refused: refusal.reason }) }
    const asked = summary.evmChains.filter((id) => supported.has(id))
    const offered = asked.includes(chainId) ? chainId : (asked[0] ?? null)
    emitter.emit('session_request', {
      peerMeta: toClientMeta(params.proposer.metadata),
      chainId: offered,
      proposal: summary,
    })
  })
  client.on('proposal_expire', ({ id }) => {
    if (proposal?.id === id) end('The session request expired')
  })
  if (oneClick) client.on('session_authenticate', auth.offer)
  client.on('session_request', requests.offer)
  client.on('session_delete', ({ topic, reason }) => {
    // 5000 from a dapp: it gave up on its request (its QR code closed) before this wallet's approval reached it.
    if (topic === session?.topic)
      end(reason?.code === SDK_ERRORS.USER_REJECTED.code ? DAPP_CANCELLED_MESSAGE : PEER_DISCONNECT_MESSAGE)
  })
  client.on('session_expire', ({ topic }) => {
    if (topic === session?.topic) end(PEER_DISCONNECT_MESSAGE)
  })

  const ready = (async () => {
    await client.ready
    if (parameters.uri !== undefined) {
      await pair(client, { uri: parameters.uri })
      return
    }
    const restored = getLatestSession(getSessions(client))
    if (!restored) return
    session = restored
    chains = getSessionChains(restored.namespaces)
    if (!chains.includes(chainId) && chains[0] !== undefined) chainId = chains[0]
  })()
  ready.catch(() => {})

  /** Refuses the pending proposal with the spec's error for what it requires (5100 unsupported chains, …). */
  const refuse = async (asked: Proposal, { error, reason }: ProposalRefusal) => {
    await reject(client, { id: asked.id, reason: error })
    end(`Refused the session request: ${reason}`)
  }
  /** Grants `chains` to `account` (`wc_sessionUpdate`). */
  const grant = (topic: string) =>
    update(client, { topic, namespaces: buildNamespaces({ chains, address: account.address }) })
  /** Tells the dapp (`name` on the session's chain) and the app (`session_update`) of a switch. */
  const announce = async (topic: string, name: string, data: unknown) => {
    await emit(client, { topic, chainId: `eip155:${chainId}`, event: { name, data } })
    emitter.emit('session_update', { chainId, accounts: [account.address] })
  }
  const switchChain = async (next: number) => {
    chainId = next
    if (!session) return
    const { topic } = session
    // A chain the session lacks is granted first: the dapp takes an event only on a chain of its session.
    if (!chains.includes(next)) {
      chains = [...chains, next]
      await grant(topic)
    }
    await announce(topic, 'chainChanged', next)
  }

  /** Makes `made` the wallet's session: the only one (an older one kept in storage is ended, its dapp told). */
  const connected = async (made: Session) => {
    session = made
    for (const other of getSessions(client))
      if (other.topic !== made.topic) await disconnect(client, { topic: other.topic }).catch(() => {})
    emitter.emit('connect', {
      peerMeta: toClientMeta(made.peer.metadata),
      chainId,
      accounts: [account.address],
    })
  }
  /**
   * Approves the pending sign-in request: the CACAOs' answer makes the session, on the chains signed for (or, for a
   * proposal's sign-in, the session the proposal asks for, settled with the CACAOs).
   */
  const signIn = async (choice: { account?: LocalAccount | undefined; chainId?: number | undefined }) => {
    account = choice.account ?? account
    const {
      session: made,
      refused,
      expired,
    } = await auth.approve(accountSigner(account), (address, asked) => {
      // A proposal's sign-in: the session grants what the proposal asks for, as `approveSession` grants it.
      chainId = choice.chainId ?? chainId
      const requested = summarizeProposal(asked).evmChains
      return buildNamespaces({ chains: [chainId, ...requested.filter((id) => supported.has(id))], address })
    })
    if (refused) return end(`Refused the sign-in request: ${refused}`)
    if (expired) return end(AUTH_EXPIRED_MESSAGE)
    // Signed in, and no session: the dapp asked for no method to call.
    if (!made) return end(SIGNED_IN_ONLY_MESSAGE)
    chains = getSessionChains(made.namespaces)
    const next = choice.chainId ?? chainId
    chainId = chains.includes(next) ? next : (chains[0] ?? next)
    await connected(made)
  }

  return {
    version: 2,
    endpoint: client.relayUrl,
    ready,
    // The client keeps unanswered requests with the session: a reload offers them again, oldest first.
    restored: ready.then(
      () => ({ requests: getPendingRequests(client).flatMap((r) => requests.offer(r) ?? []), expired: [] }),
      () => ({ requests: [], expired: [] }),
    ),
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
      const metadata = session?.peer.metadata ?? proposal?.proposer.metadata ?? auth.metadata
      return metadata ? toClientMeta(metadata) : null
    },
    get accounts() {
      return session ? [account.address] : []
    },
    on: emitter.on,
    async approveSession(choice = {}) {
      if (auth.pending) return signIn(choice)
      const asked = proposal
      if (!asked) throw new Error('There is no session request to approve')
      // Not approved with a session lacking what the dapp requires: refused, as the spec asks.
      if (refusal) return refuse(asked, refusal)
      account = choice.account ?? account
      chainId = choice.chainId ?? chainId
      const requested = summarizeProposal(asked).evmChains.filter((id) => supported.has(id))
      chains = [...new Set([chainId, ...requested])]
      const namespaces = buildNamespaces({ chains, address: account.address })
      const { acknowledged } = await approve(client, { id: asked.id, namespaces })
      proposal = undefined
      let made: Session
      try {
        made = await acknowledged()
      } catch (error) {
        // The dapp answered the settlement with 5000: it had given up on its request (its QR code closed).
        if (error instanceof SignError && error.code === SDK_ERRORS.USER_REJECTED.code)
          return end(DAPP_CANCELLED_MESSAGE)
        throw error
      }
      await connected(made)
    },
    async rejectSession(message) {
      if (auth.pending) {
        const { refused } = await auth.reject()
        return end(
          refused ? `Refused the sign-in request: ${refused}` : (message ?? SDK_ERRORS.USER_REJECTED.message),
        )
      }
      if (!proposal) throw new Error('There is no session request to reject')
      // The dapp hears the real reason (5100 unsupported chains, …) rather than the person's no.
      if (refusal) return refuse(proposal, refusal)
      await reject(client, { id: proposal.id, reason: SDK_ERRORS.USER_REJECTED })
      end(message ?? SDK_ERRORS.USER_REJECTED.message)
    },
    approveRequest: (request) =>
      requests.approve(request, (on) =>
        answerRequest(request, { account, rpcUrl, chainId: on, switchChain }),
      ),
    rejectRequest: requests.reject,
    async setAccount(next) {
      account = next
      if (!session) return
      await grant(session.topic)
      await announce(session.topic, 'accountsChanged', [next.address])
    },
    setChainId: switchChain,
    async disconnect() {
      if (session) await disconnect(client, { topic: session.topic })
      end(OWN_DISCONNECT_MESSAGE)
    },
    close: () => void client.close(),
  }
}
