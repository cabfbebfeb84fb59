import type { TransportState } from '@pairlink/client'
import type { Metadata } from '@pairlink/client/v2'
import type { ClientMeta, JsonRpcRequest } from '@pairlink/protocol'
import type { LocalAccount } from 'viem'
import type { RequestOutcome } from './createWallet.js'
import type { ProposalSummary } from './namespaces.js'
import type { RestoredRequests } from './requestQueue.js'
import type { AuthRequestSummary } from './summarizeAuthRequest.js'

/** The `disconnect` message when this wallet ended the session (v1's text, kept for v2 alike). */
export const OWN_DISCONNECT_MESSAGE = 'Session Disconnected'
/** The `disconnect` message when the dapp ended the session (v1's text, kept for v2 alike). */
export const PEER_DISCONNECT_MESSAGE = 'Session disconnected'
/**
 * The `disconnect` message when the dapp refused the session this wallet approved (5000): it had given up on its
 * request, as when the person closed its QR code (v2).
 */
export const DAPP_CANCELLED_MESSAGE = 'The dapp cancelled its request'
/** The `disconnect` message when a dapp's sign-in request (v2 one-click auth) expired before it was answered. */
export const AUTH_EXPIRED_MESSAGE = 'The sign-in request expired'
/** The `disconnect` message after a sign-in that asked for no session (its ReCap named no method to call). */
export const SIGNED_IN_ONLY_MESSAGE = 'Signed in; the dapp asked for no session'

/** A v2 peer's metadata as v1's `ClientMeta` (v2's `redirect` left out). */
export const toClientMeta = ({ name, description, url, icons }: Metadata): ClientMeta => ({
  name,
  description,
  url,
  icons,
})

/** The events both wallets emit, with the fields both carry. */
export type SessionWalletEvents = {
  /** A dapp asks for a session; `proposal` (v2 only) is what it asks for: chains, methods, events. */
  session_request: {
    peerMeta: ClientMeta | null
    chainId: number | null
    proposal?: ProposalSummary | undefined
  }
  /**
   * v2 one-click auth (`wc_sessionAuthenticate`): a dapp asks to connect and sign in with one approval; `request`
   * is what it asks for and the text signed. Answered by `approveSession` / `rejectSession`, as a proposal is.
   */
  session_authenticate: { peerMeta: ClientMeta | null; chainId: number | null; request: AuthRequestSummary }
  /** v2 one-click auth: the wallet signed the dapp in as `address` (one CACAO per chain); `connect` follows. */
  signed_in: { peerMeta: ClientMeta | null; domain: string; address: string; chains: number[] }
  connect: { peerMeta: ClientMeta | null; chainId: number; accounts: string[] }
  session_update: { chainId: number; accounts: string[] }
  disconnect: { message: string }
  call_request: JsonRpcRequest
  transport: { state: TransportState }
  answered: RequestOutcome
}

/**
 * A wallet of either protocol version, as the app and `pairlink-wallet` drive it: `createWallet` (v1) and
 * `createWalletV2` both return one.
 */
export type SessionWallet = {
  readonly version: 1 | 2
  readonly account: LocalAccount
  /** The session's chain (v2: the one the wallet last switched to; requests name their own). */
  readonly chainId: number
  /** The session is connected. */
  readonly connected: boolean
  readonly peerMeta: ClientMeta | null
  readonly accounts: string[]
  /** The v1 bridge or the v2 relay the wallet talks through. */
  readonly endpoint: string
  /** Settles once a v2 wallet paired or restored its stored session; rejects when the pairing failed. */
  readonly ready: Promise<void>
  /**
   * Settles once the stored unanswered requests of a restored session were read: offered again, or answered as
   * expired. Their events come after the wallet was made, so listeners added right away get them.
   */
  readonly restored: Promise<RestoredRequests>
  on<name extends keyof SessionWalletEvents>(
    event: name,
    listener: (payload: SessionWalletEvents[name]) => void,
  ): () => void
  /**
   * Approves the pending session request, optionally with another account or chain than the current ones; v2: or the
   * pending sign-in request (`session_authenticate`), signing one CACAO per chain it grants.
   */
  approveSession(choice?: { account?: LocalAccount | undefined; chainId?: number | undefined }): Promise<void>
  /** Rejects the pending session request (v2: or sign-in request) with 5000 `User rejected.`. */
  rejectSession(message?: string): Promise<void>
  /** Signs (or broadcasts) and answers a call request; a failure is answered as an error and reported. */
  approveRequest(request: JsonRpcRequest): Promise<RequestOutcome>
  /** Answers a call request with 4001 `User rejected the request.`. */
  rejectRequest(request: JsonRpcRequest): Promise<RequestOutcome>
  /** Switches the account; a connected session is updated. */
  setAccount(account: LocalAccount): Promise<void>
  /** Switches the chain; a connected session is updated. */
  setChainId(chainId: number): Promise<void>
  /** Ends the session (the dapp sees it ended). */
  disconnect(): Promise<void>
  /** Closes the socket and keeps the stored session and its unanswered requests. */
  close(): void
}
