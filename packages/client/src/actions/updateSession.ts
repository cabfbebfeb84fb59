import { payloadId, SessionError, type SessionUpdate, V1_ERRORS } from '@pairlink/protocol'
import type { Client } from '../createClient.js'
import { getInternal, persist, publish } from '../session.js'

/** Parameters of {@link updateSession}: the new account list and chain. */
export type UpdateSessionParameters = {
  chainId: number
  accounts: string[]
  /** @default 0 */
  networkId?: number | undefined
  /** @default '' */
  rpcUrl?: string | undefined
}

/**
 * Either side (usually the wallet): switches account or chain. The peer gets `wc_sessionUpdate`; both sides emit
 * `session_update`.
 *
 * @example
 * wallet.updateSession({ chainId: 5, accounts: [address] })
 */
export async function updateSession(client: Client, parameters: UpdateSessionParameters): Promise<void> {
  const internal = getInternal(client)
  if (!internal.connected) throw new SessionError(V1_ERRORS.SESSION_DISCONNECTED)
  const { chainId, accounts, networkId = 0, rpcUrl = '' } = parameters
  const update: SessionUpdate = {
    id: payloadId(),
    jsonrpc: '2.0',
    method: 'wc_sessionUpdate',
    params: [{ approved: true, chainId, networkId, accounts, rpcUrl }],
  }
  const sent = publish(internal, internal.peerId, update, true)
  Object.assign(internal, { chainId, accounts, networkId, rpcUrl })
  void persist(internal)
  internal.emitter.emit('session_update', { chainId, accounts })
  return sent
}
