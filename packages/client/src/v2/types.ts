import type { AuthPayload } from '@pairlink/protocol/v2'

/** What a peer announces about itself (the SDK's `CoreTypes.Metadata`). */
export type Metadata = {
  name: string
  description: string
  url: string
  icons: string[]
  redirect?: { native?: string | undefined; universal?: string | undefined } | undefined
}

/** A CAIP-25 namespace a dapp asks for: `eip155` → its chains, methods and events. */
export type ProposalNamespace = {
  /** CAIP-2 chain ids (`eip155:1`); may be left out when the namespace key is itself a chain (`eip155:1`). */
  chains?: string[] | undefined
  methods: string[]
  events: string[]
}

/** A namespace a wallet grants: its CAIP-10 accounts (`eip155:1:0xab…`) and what the dapp may call and hear. */
export type SessionNamespace = {
  chains?: string[] | undefined
  accounts: string[]
  methods: string[]
  events: string[]
}

/** A JSON-RPC error object as both peers send it (`{ code, message }`, the SDK's `getSdkError`). */
export type ErrorResponse = { code: number; message: string; data?: string | undefined }

/** A JSON-RPC response a wallet sends back for a request. */
export type JsonRpcResponse<result = unknown> =
  | { id: number; jsonrpc: '2.0'; result: result }
  | { id: number; jsonrpc: '2.0'; error: ErrorResponse }

/** A session proposal as it travels in `wc_sessionPropose` (the SDK's `ProposalTypes.Struct`). */
export type Proposal = {
  id: number
  pairingTopic: string
  /** Seconds since the epoch after which the proposal can no longer be approved. */
  expiryTimestamp: number
  relays: { protocol: string }[]
  proposer: { publicKey: string; metadata: Metadata }
  requiredNamespaces: Record<string, ProposalNamespace>
  optionalNamespaces: Record<string, ProposalNamespace>
  sessionProperties?: Record<string, string> | undefined
}

/** A settled session (the SDK's `SessionTypes.Struct`, without the fields Pairlink does not use). */
export type Session = {
  topic: string
  pairingTopic: string
  relay: { protocol: string }
  /** Seconds since the epoch; the session ends then unless extended. */
  expiry: number
  /** The wallet has confirmed the settlement (always `true` on the dapp's side). */
  acknowledged: boolean
  /** The X25519 public key of the side that may update the session: the wallet. */
  controller: string
  namespaces: Record<string, SessionNamespace>
  requiredNamespaces: Record<string, ProposalNamespace>
  optionalNamespaces: Record<string, ProposalNamespace>
  sessionProperties?: Record<string, string> | undefined
  self: { publicKey: string; metadata: Metadata }
  peer: { publicKey: string; metadata: Metadata }
}

/** A pairing: the topic a proposal travels on, from the `wc:` URI. */
export type Pairing = {
  topic: string
  /** Seconds since the epoch. */
  expiry: number
  /** A session was proposed and answered over it. */
  active: boolean
  /** The methods the dapp's URI names (`wc_sessionAuthenticate` for one-click auth), when it named any. */
  methods?: string[] | undefined
  peerMetadata?: Metadata | undefined
}

/** The `params` of a `wc_sessionRequest`. */
export type SessionRequestParams = {
  request: { method: string; params: unknown; expiryTimestamp?: number | undefined }
  chainId: string
}

/** A request the dapp sent and the wallet has not answered yet (the SDK's `PendingRequestTypes.Struct`). */
export type PendingRequest = { id: number; topic: string; params: SessionRequestParams }

/** The `params` of a `wc_sessionEvent`. */
export type SessionEventParams = {
  event: { name: string; data: unknown }
  chainId: string
}

/** The `params` of a `wc_sessionAuthenticate`: the sign-in a dapp asks for (one-click auth). */
export type AuthenticateRequest = {
  authPayload: AuthPayload
  /** The dapp's X25519 public key: the answer goes to its hash (type 1 envelope), the session key comes from it. */
  requester: { publicKey: string; metadata: Metadata }
  /** Seconds since the epoch after which the request can no longer be answered. */
  expiryTimestamp: number
}

/** A one-click auth request this client (a wallet) received and has not answered, by id. */
export type PendingAuthRequest = { id: number; topic: string; params: AuthenticateRequest }
