import {
  type AuthenticateRequest,
  approveAuthenticate,
  type ErrorResponse,
  rejectAuthenticate,
  SDK_ERRORS,
  type Session,
  type SignClient,
} from '@pairlink/client/v2'
import { buildCacaos, type CacaoSigner } from './buildCacaos.js'
import type { Emitter } from './emitter.js'
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
}

/**
 * A v2 wallet's one-click auth request (`wc_sessionAuthenticate`) between its arrival and the person's answer,
 * one at a time like a proposal: offered as `session_authenticate` (what it asks, the text to sign), then approved
 * (one CACAO per granted chain, `approveAuthenticate`: the dapp's session) or rejected (5000). A request the wallet
 * cannot grant is refused with the spec's error either way; an expired one is dropped.
 */
export function createAuthPrompt(parameters: CreateAuthPromptParameters) {
  const { client, emitter } = parameters
  let pending: Pending | undefined
  let timer: ReturnType<typeof setTimeout> | undefined

  const clear = () => {
    pending = undefined
    clearTimeout(timer)
  }
  const expired = (params: AuthenticateRequest) => params.expiryTimestamp * 1000 <= Date.now()
  /** Takes the pending request to answer, once: a double click must not sign twice. */
  const take = () => {
    const taken = pending
    if (!taken) throw new Error('There is no sign-in request to answer')
    clear()
    return taken
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
    offer({ id, params }: { id: number; params: AuthenticateRequest }) {
      if (expired(params)) return parameters.drop(AUTH_EXPIRED_MESSAGE)
      clear()
      const { summary, error } = summarizeAuthRequest(params, {
        supportedChains: parameters.supportedChains,
        address: parameters.address(),
      })
      pending = { id, params, summary, error }
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
    },
    /**
     * Signs the dapp in as `signer` (one CACAO per granted chain) and answers; resolves with the session the
     * answer makes (`undefined` when the dapp asked for no method, when it expired, or when it was refused:
     * `refused` says why).
     */
    async approve(
      signer: CacaoSigner,
    ): Promise<{ session?: Session | undefined; refused?: string | undefined; expired?: true }> {
      const { id, params, summary, error } = take()
      if (error) {
        await rejectAuthenticate(client, { id, reason: error })
        return { refused: summary.refused }
      }
      if (expired(params)) return { expired: true }
      // The messages shown were for the wallet's account; the signer's address is the one signed as.
      const { payload } = summarizeAuthRequest(params, {
        supportedChains: parameters.supportedChains,
        address: signer.address,
      }).summary
      const auths = await buildCacaos({ payload, signer })
      const { session } = await approveAuthenticate(client, { id, auths })
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
      const { id, summary, error } = take()
      await rejectAuthenticate(client, { id, reason: error ?? SDK_ERRORS.USER_REJECTED })
      return { refused: summary.refused }
    },
    clear,
  }
}
