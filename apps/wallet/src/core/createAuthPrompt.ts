import {
  type AuthenticateRequest,
  approveAuthenticate,
  approve as approveProposal,
  type ErrorResponse,
  type Proposal,
  rejectAuthenticate,
  reject as rejectProposal,
  SDK_ERRORS,
  type Session,
  type SessionNamespace,
  type SignClient,
} from '@pairlink/client/v2'
import type { Emitter } from '@pairlink/protocol'
import type { AuthPayload } from '@pairlink/protocol/v2'
import { buildCacaos, type CacaoSigner } from './buildCacaos.js'
import { parseCaipChain, summarizeProposal, WALLET_METHODS } from './namespaces.js'
import { AUTH_EXPIRED_MESSAGE, type SessionWalletEvents, toClientMeta } from './sessionWallet.js'
import { type AuthRequestSummary, summarizeAuthRequest } from './summarizeAuthRequest.js'

/** Parameters of {@link createAuthPrompt}. */
export type CreateAuthPromptParameters = {
  client: SignClient
  emitter: Emitter<SessionWalletEvents>
  /** The chains this wallet grants. */
  supportedChains: ReadonlySet<number>
  /** The address the prompt's messages name (the signer's, once known). */
  address: () => string
  /** The wallet's chain: offered first when the dapp asks for it. */
  chainId: () => number
  /** The request went away unanswered (expired): the wallet drops it, saying `message`. */
  drop: (message: string) => void
}

/** A one-click auth request on screen. */
type Pending = {
  id: number
  params: AuthenticateRequest
  summary: AuthRequestSummary
  error?: ErrorResponse | undefined
  /** The sign-in came inside this proposal (`requests.authentication`): answered with the session's approval. */
  proposal?: Proposal | undefined
}

/**
 * A v2 wallet's one-click auth request between its arrival and the person's answer, one at a time like a proposal:
 * `wc_sessionAuthenticate`, or a proposal carrying a sign-in (`requests.authentication`, the SDK's
 * `connect({ authentication })`). Offered as `session_authenticate` (what it asks, the text to sign), then approved
 * (one CACAO per granted chain: `approveAuthenticate`, or the proposal's `approve` with `proposalRequestsResponses`)
 * or rejected (5000). A request the wallet cannot grant is refused with the spec's error either way; an expired one
 * is dropped.
 */
export function createAuthPrompt(parameters: CreateAuthPromptParameters) {
  const { client, emitter } = parameters
  let pending: Pending | undefined
  let timer: ReturnType<typeof setTimeout> | undefined

  const clear = () => {
    pending = undefined
    clearTimeout(timer)
  }
  const refuse = (id: number, reason: ErrorResponse, proposal: Proposal | undefined) =>
    proposal ? rejectProposal(client, { id, reason }) : rejectAuthenticate(client, { id, reason })
  const expired = (params: AuthenticateRequest) => params.expiryTimestamp * 1000 <= Date.now()
  /** Takes the pending request to answer, once: a double click must not sign twice. */
  const take = () => {
    const taken = pending
    if (!taken) throw new Error('There is no sign-in request to answer')
    clear()
    return taken
  }

  /** Shows a request; `proposal` when it came inside one. */
  const offer = ({ id, params }: { id: number; params: AuthenticateRequest }, proposal?: Proposal) => {
    if (expired(params)) return parameters.drop(AUTH_EXPIRED_MESSAGE)
    clear()
    const { summary, error } = summarizeAuthRequest(params, {
      supportedChains: parameters.supportedChains,
      address: parameters.address(),
    })
    if (proposal) {
      // The session grants what the proposal asks for (its namespaces), whatever the sign-in's ReCap says.
      const methods = [...new Set([...summarizeProposal(proposal).methods, ...summary.methods])]
      const implemented = new Set<string>(WALLET_METHODS)
      Object.assign(summary, { methods, grantedMethods: methods.filter((m) => implemented.has(m)) })
    }
    pending = { id, params, summary, error, proposal }
    // The dapp stops waiting then; an answer after it would reach no one.
    timer = setTimeout(
      () => {
        if (pending?.id !== id) return
        clear()
        parameters.drop(AUTH_EXPIRED_MESSAGE)
      },
      Math.min(params.expiryTimestamp * 1000 - Date.now(), 2 ** 31 - 1),
    )
    const chainId = parameters.chainId()
    emitter.emit('session_authenticate', {
      peerMeta: toClientMeta(params.requester.metadata),
      chainId: summary.evmChains.includes(chainId) ? chainId : (summary.evmChains[0] ?? null),
      request: summary,
    })
  }

  return {
    /** Whether a sign-in request waits for the person's answer. */
    get pending() {
      return pending !== undefined
    },
    /** The dapp of the pending request. */
    get metadata() {
      return pending?.params.requester.metadata
    },
    /** Offers a request as it arrives (the client's `session_authenticate` event). */
    offer,
    /**
     * Offers a proposal that asks for a sign-in too: its first sign-in on a chain this wallet supports (else its
     * first), read as a one-click auth request is.
     */
    offerProposal(proposal: Proposal & { requests: { authentication: AuthPayload[] } }) {
      const { authentication } = proposal.requests
      const supported = (chain: string) => parameters.supportedChains.has(parseCaipChain(chain) ?? Number.NaN)
      const authPayload = authentication.find((entry) => entry.chains.some(supported)) ?? authentication[0]
      if (!authPayload) return
      const params = { authPayload, requester: proposal.proposer, expiryTimestamp: proposal.expiryTimestamp }
      offer({ id: proposal.id, params }, proposal)
    },
    /**
     * Signs the dapp in as `signer` (one CACAO per granted chain) and answers; resolves with the session the
     * answer makes (`undefined` when the dapp asked for no method, when it expired, or when it was refused:
     * `refused` says why). A proposal's sign-in is answered with the session `grant` gives `signer`'s address.
     */
    async approve(
      signer: CacaoSigner,
      grant?: (address: string, proposal: Proposal) => Record<string, SessionNamespace>,
    ): Promise<{ session?: Session | undefined; refused?: string | undefined; expired?: true }> {
      const { id, params, summary, error, proposal } = take()
      if (error) {
        await refuse(id, error, proposal)
        return { refused: summary.refused }
      }
      if (expired(params)) return { expired: true }
      // The messages shown were for the wallet's account; the signer's address is the one signed as.
      const { payload } = summarizeAuthRequest(params, {
        supportedChains: parameters.supportedChains,
        address: signer.address,
      }).summary
      const auths = await buildCacaos({ payload, signer })
      let session: Session | undefined
      if (proposal && grant) {
        const { acknowledged } = await approveProposal(client, {
          id,
          namespaces: grant(signer.address, proposal),
          proposalRequestsResponses: { authentication: auths },
        })
        session = await acknowledged()
      } else session = (await approveAuthenticate(client, { id, auths })).session
      emitter.emit('signed_in', {
        peerMeta: toClientMeta(params.requester.metadata),
        domain: summary.domain,
        address: signer.address,
        chains: summary.evmChains,
      })
      return { session }
    },
    /** Rejects the pending request: 5000 `User rejected.`, or the spec's error when it could not be granted. */
    async reject(): Promise<{ refused?: string | undefined }> {
      const { id, summary, error, proposal } = take()
      await refuse(id, error ?? SDK_ERRORS.USER_REJECTED, proposal)
      return { refused: summary.refused }
    },
    clear,
  }
}
