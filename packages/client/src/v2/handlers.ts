import { refuseSettlement } from './abandoned.js'
import { onAuthenticateRequest } from './authRequest.js'
import { SDK_ERRORS } from './errors.js'
import {
  deleteSession,
  dropTopic,
  expiryIn,
  type Internal,
  PROPOSE_REJECT_TAG,
  save,
  sendError,
  sendResult,
} from './internal.js'
import { hasChain, hasEvent, hasMethod, isProposalNamespaces, isSessionNamespaces } from './namespaces.js'
import type {
  ErrorResponse,
  Metadata,
  Proposal,
  Session,
  SessionEventParams,
  SessionRequestParams,
} from './types.js'

/** A request of the peer; `quiet`: handled here, answered by another tab (see `tabs.ts`). */
type Request = { id: number; method: string; params: unknown; quiet?: boolean | undefined }
type Handler = (internal: Internal, topic: string, request: Request) => Promise<void> | void

// The SDK's session lifetime (`SESSION_EXPIRY`), set again by every extend.
const SEVEN_DAYS = 604_800
const KEY_RE = /^[0-9a-f]{64}$/

/** The last update / event id handled per topic (and event name): an older one arriving late is stale. */
const latest = new WeakMap<Internal, Map<string, number>>()
/** Whether `id` is older than the last one handled under `key`, by the ms time in its first digits (the SDK's check). */
function isStale(internal: Internal, key: string, id: number): boolean {
  const seen = latest.get(internal) ?? new Map<string, number>()
  latest.set(internal, seen)
  const last = seen.get(key)
  if (last !== undefined && Math.floor(id / 1000) < Math.floor(last / 1000)) return true
  seen.set(key, id)
  return false
}

const loadRequests = () => import('./proposalRequests.js')

const fail = (error: ErrorResponse, context?: string): ErrorResponse =>
  context ? { code: error.code, message: `${error.message} ${context}` } : { ...error }

/**
 * Answers `request` with `true` or an error, unless another tab answers it. Not waited for: the change is made here
 * either way, and a socket that is down must not hold up the messages after it.
 */
function reply(internal: Internal, topic: string, request: Request, outcome: true | ErrorResponse): void {
  if (request.quiet) return
  const { id, method } = request
  const sent =
    outcome === true
      ? sendResult(internal, topic, id, method, true)
      : sendError(internal, topic, id, method, outcome)
  sent.catch(() => {})
}

const isMetadata = (value: unknown): value is Metadata =>
  !!value && typeof value === 'object' && typeof (value as Metadata).name === 'string'

/** The Sign and pairing requests a peer may send, by method. Both roles' handlers: a restored client needs them. */
const HANDLERS: Record<string, Handler> = {
  // Wallet: a dapp's proposal on a pairing this wallet joined.
  async wc_sessionPropose(internal, topic, { id, params }) {
    const pairing = internal.state.pairings[topic]
    if (!pairing) return
    // One-click auth's fallback proposal is for wallets without it: one whose app answers `session_authenticate`
    // leaves it (the SDK's `shouldIgnorePairingRequest`).
    if (
      pairing.methods?.includes('wc_sessionAuthenticate') &&
      internal.emitter.listenerCount('session_authenticate') > 0
    )
      return
    const p = (params ?? {}) as Partial<Proposal>
    const required = p.requiredNamespaces ?? {}
    const optional = p.optionalNamespaces ?? {}
    // The sign-in's checks load apart: most proposals carry none.
    const requests = p.requests == null ? undefined : (await loadRequests()).readProposalRequests(p.requests)
    if (
      requests === null ||
      !KEY_RE.test(p.proposer?.publicKey ?? '') ||
      !isMetadata(p.proposer?.metadata) ||
      !isProposalNamespaces(required) ||
      !isProposalNamespaces(optional)
    )
      // The SDK's auto-reject: tag 1121.
      return sendError(
        internal,
        topic,
        id,
        'wc_sessionPropose',
        fail(SDK_ERRORS.INVALID_METHOD),
        PROPOSE_REJECT_TAG + 1,
      )
    const proposal: Proposal = {
      id,
      pairingTopic: topic,
      expiryTimestamp: typeof p.expiryTimestamp === 'number' ? p.expiryTimestamp : expiryIn(300),
      relays: Array.isArray(p.relays) ? p.relays : [{ protocol: 'irn' }],
      proposer: { publicKey: p.proposer?.publicKey as string, metadata: p.proposer?.metadata as Metadata },
      requiredNamespaces: required,
      optionalNamespaces: optional,
      ...(p.sessionProperties ? { sessionProperties: p.sessionProperties } : {}),
      requests,
    }
    if (proposal.expiryTimestamp * 1000 <= Date.now()) return
    internal.state.proposals[id] = proposal
    pairing.peerMetadata = proposal.proposer.metadata
    save(internal)
    internal.emitter.emit('session_proposal', { id, params: proposal })
  },

  // Dapp: the wallet's settlement on the topic its answer to the proposal made.
  async wc_sessionSettle(internal, topic, { id, params }) {
    const { state } = internal
    const proposal = Object.values(state.proposed).find((entry) => entry.sessionTopic === topic)
    if (!proposal) return
    if (proposal.abandoned) return refuseSettlement(internal, topic, id, proposal)
    const p = (params ?? {}) as Partial<Session> & {
      controller?: { publicKey?: string; metadata?: Metadata }
      proposalRequestsResponses?: { authentication?: unknown }
    }
    const controller = p.controller
    if (
      !controller ||
      !KEY_RE.test(controller.publicKey ?? '') ||
      !isMetadata(controller.metadata) ||
      !isSessionNamespaces(p.namespaces) ||
      typeof p.expiry !== 'number'
    )
      return sendError(
        internal,
        topic,
        id,
        'wc_sessionSettle',
        fail(SDK_ERRORS.INVALID_SESSION_SETTLE_REQUEST),
      )
    const answered = proposal.requests?.authentication && p.proposalRequestsResponses?.authentication
    const authentication = answered
      ? await (await loadRequests()).takeAuthentication(internal, topic, id, proposal, answered)
      : undefined
    if (authentication === false) return
    const session: Session = {
      topic,
      pairingTopic: proposal.pairingTopic,
      relay: p.relay ?? { protocol: 'irn' },
      expiry: p.expiry,
      acknowledged: true,
      controller: controller.publicKey as string,
      namespaces: p.namespaces,
      requiredNamespaces: proposal.requiredNamespaces,
      optionalNamespaces: proposal.optionalNamespaces,
      ...(p.sessionProperties ? { sessionProperties: p.sessionProperties } : {}),
      ...(authentication ? { authentication } : {}),
      self: { publicKey: proposal.proposer.publicKey, metadata: internal.metadata },
      peer: { publicKey: controller.publicKey as string, metadata: controller.metadata },
    }
    state.sessions[topic] = session
    delete state.proposed[proposal.id]
    const pairing = state.pairings[proposal.pairingTopic]
    if (pairing) pairing.peerMetadata = session.peer.metadata
    save(internal)
    await sendResult(internal, topic, id, 'wc_sessionSettle', true).catch(() => {})
    internal.approvals.get(proposal.id)?.resolve(session)
    internal.approvals.delete(proposal.id)
    internal.emitter.emit('session_connect', { session })
  },

  // Dapp: the wallet changed accounts, chains, methods or events.
  async wc_sessionUpdate(internal, topic, request) {
    const { id, params } = request
    const session = internal.state.sessions[topic]
    if (!session) return
    const { namespaces } = (params ?? {}) as { namespaces?: unknown }
    if (session.peer.publicKey !== session.controller)
      return reply(internal, topic, request, fail(SDK_ERRORS.UNAUTHORIZED_UPDATE_REQUEST))
    if (!isSessionNamespaces(namespaces) || isStale(internal, `${topic}:update`, id))
      return reply(internal, topic, request, fail(SDK_ERRORS.INVALID_UPDATE_REQUEST))
    session.namespaces = namespaces
    save(internal)
    reply(internal, topic, request, true)
    internal.emitter.emit('session_update', { id, topic, params: { namespaces } })
  },

  async wc_sessionExtend(internal, topic, request) {
    const session = internal.state.sessions[topic]
    if (!session) return
    session.expiry = expiryIn(SEVEN_DAYS)
    save(internal)
    reply(internal, topic, request, true)
    internal.emitter.emit('session_extend', { id: request.id, topic })
  },

  async wc_sessionPing(internal, topic, request) {
    if (!internal.state.sessions[topic]) return
    reply(internal, topic, request, true)
    internal.emitter.emit('session_ping', { id: request.id, topic })
  },

  // Not answered (the SDK does not answer it either): the peer has already forgotten the session.
  wc_sessionDelete(internal, topic, { id, params }) {
    if (!internal.state.sessions[topic]) return
    deleteSession(internal, topic, SDK_ERRORS.USER_DISCONNECTED)
    const { code, message } = (params ?? {}) as Partial<ErrorResponse>
    const reason = typeof code === 'number' && typeof message === 'string' ? { code, message } : undefined
    internal.emitter.emit('session_delete', { id, topic, ...(reason ? { reason } : {}) })
  },

  // Wallet: a request from the dapp, checked against the session's namespaces before the app sees it.
  wc_sessionRequest(internal, topic, request) {
    const { id, params } = request
    const session = internal.state.sessions[topic]
    if (!session) return
    const p = (params ?? {}) as Partial<SessionRequestParams>
    if (typeof p.chainId !== 'string' || typeof p.request?.method !== 'string')
      return reply(internal, topic, request, fail(SDK_ERRORS.INVALID_METHOD))
    if (!hasChain(session.namespaces, p.chainId))
      return reply(internal, topic, request, fail(SDK_ERRORS.UNSUPPORTED_CHAINS, p.chainId))
    if (!hasMethod(session.namespaces, p.chainId, p.request.method))
      return reply(internal, topic, request, fail(SDK_ERRORS.UNSUPPORTED_METHODS, p.request.method))
    const expiryTimestamp = p.request.expiryTimestamp
    if (typeof expiryTimestamp === 'number' && expiryTimestamp * 1000 <= Date.now()) return
    const pending = { id, topic, params: p as SessionRequestParams }
    internal.state.requests[id] = pending
    save(internal)
    internal.emitter.emit('session_request', pending)
  },

  // Dapp: the wallet's event; events are not answered unless refused.
  wc_sessionEvent(internal, topic, request) {
    const { id, params } = request
    const session = internal.state.sessions[topic]
    if (!session) return
    const p = (params ?? {}) as Partial<SessionEventParams>
    const name = p.event?.name
    if (typeof p.chainId !== 'string' || typeof name !== 'string')
      return reply(internal, topic, request, fail(SDK_ERRORS.INVALID_EVENT))
    if (!hasChain(session.namespaces, p.chainId) || !hasEvent(session.namespaces, p.chainId, name))
      return reply(internal, topic, request, fail(SDK_ERRORS.UNSUPPORTED_EVENTS, name))
    if (isStale(internal, `${topic}:event:${name}`, id)) return
    internal.emitter.emit('session_event', { id, topic, params: p as SessionEventParams })
  },

  wc_sessionAuthenticate: onAuthenticateRequest,

  wc_pairingPing(internal, topic, { id, method }) {
    if (internal.state.pairings[topic]) return sendResult(internal, topic, id, method, true)
  },

  wc_pairingDelete(internal, topic) {
    if (!internal.state.pairings[topic]) return
    delete internal.state.pairings[topic]
    dropTopic(internal, topic)
    save(internal)
  },
}

/** Handles a request the peer sent on `topic`; an unknown method is refused as the SDK refuses it. */
export async function onRequest(internal: Internal, topic: string, request: Request): Promise<void> {
  const handler = HANDLERS[request.method]
  if (handler) return handler(internal, topic, request)
  internal.stats.ignored++
  reply(internal, topic, request, fail(SDK_ERRORS.WC_METHOD_UNSUPPORTED, request.method))
}
