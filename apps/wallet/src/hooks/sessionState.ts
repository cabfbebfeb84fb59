import type { TransportState } from '@pairlink/client'
import type { ClientMeta, JsonRpcRequest } from '@pairlink/protocol'
import type { RequestOutcome } from '../core/createWallet.js'
import type { ProposalSummary } from '../core/namespaces.js'
import type { AuthRequestSummary } from '../core/summarizeAuthRequest.js'

/** A message for the person: what just happened. */
export type Status = { tone: 'info' | 'success' | 'warning' | 'error'; text: string }

/** One answered request as the activity list shows it: what was asked, by which dapp, when. */
export type ActivityItem = RequestOutcome & {
  /** What was asked, in words (`Sign message`, `Send transaction`), not the wire method. */
  title: string
  dapp: string
  /** When it was answered (ms since the epoch). */
  at: number
}

/** Where the session is. */
type Phase = 'idle' | 'pairing' | 'session_request' | 'connected'

/** Everything the screens show about the session. */
export type SessionState = {
  phase: Phase
  /** The WalletConnect version of the link being paired or of the session; `null` when idle. */
  version: 1 | 2 | null
  /** v2: what the dapp's proposal asks for (chains, methods, events), shown before Approve. */
  proposal: ProposalSummary | undefined
  /** v2 one-click auth: what the dapp's sign-in request asks for and the message to sign, shown before Approve. */
  auth: AuthRequestSummary | undefined
  peer: ClientMeta | null
  /** The chain the dapp asked for in its session request. */
  requestedChainId: number | null
  chainId: number
  /** The session's account address. */
  address: string | undefined
  /** Call requests waiting for an answer, oldest first. */
  requests: JsonRpcRequest[]
  /** The last answer, shown until the person dismisses it or the next request comes. */
  outcome: RequestOutcome | undefined
  /** Recent answers, newest first. */
  activity: ActivityItem[]
  transport: TransportState
  /** The bridge has been unreachable for a while; the client keeps retrying. */
  bridgeRetrying: boolean
  status: Status | undefined
}

export const INITIAL: SessionState = {
  phase: 'idle',
  version: null,
  proposal: undefined,
  auth: undefined,
  peer: null,
  requestedChainId: null,
  chainId: 0,
  address: undefined,
  requests: [],
  outcome: undefined,
  activity: [],
  transport: 'closed',
  bridgeRetrying: false,
  status: undefined,
}

// A socket that is still connecting after this long is reported as unreachable (the client retries on its own).
export const RETRY_NOTICE_MS = 2500
export const MAX_ACTIVITY = 20
/** How long a pairing waits for the dapp's session request before it gives up and says so. */
export const PAIRING_TIMEOUT_MS = 30_000
