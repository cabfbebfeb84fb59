import { type SessionApproval, SessionError, V1_ERRORS } from '@pairlink/protocol'
import type { Client } from '../createClient.js'
import { announceConnected, getClientId, getInternal, persist, publish } from '../session.js'

/** Parameters of {@link approveSession}. */
export type ApproveSessionParameters = {
  chainId: number
  accounts: string[]
  /** @default 0 */
  networkId?: number | undefined
  /** @default '' */
  rpcUrl?: string | undefined
}

/**
 * Wallet: approves the pending session request. The client is connected at once (`connect` fires synchronously, as
 * in v1); the returned promise settles when the approval was handed to the socket.
 *
 * @example
 * wallet.on('session_request', () => wallet.approveSession({ chainId: 1, accounts: [address] }))
 */
export async function approveSession(client: Client, parameters: ApproveSessionParameters): Promise<void> {
  const internal = getInternal(client)
  if (internal.connected) throw new SessionError(V1_ERRORS.SESSION_CONNECTED)
  if (!internal.peerId || !internal.handshakeId) {
    throw new SessionError('No session request to answer', { code: 'ERR_NO_SESSION_REQUEST' })
  }
  const { chainId, accounts, networkId = 0, rpcUrl = '' } = parameters
  // Key order as 1.8.0 writes it (reference §4.3).
  const result: SessionApproval = {
    approved: true,
    chainId,
    networkId,
    accounts,
    rpcUrl,
    peerId: getClientId(internal),
    peerMeta: internal.clientMeta,
  }
  const sent = publish(internal, internal.peerId, { id: internal.handshakeId, jsonrpc: '2.0', result }, true)
  Object.assign(internal, { connected: true, chainId, accounts, networkId, rpcUrl, awaitingRequest: false })
  void persist(internal)
  announceConnected(internal)
  return sent
}
