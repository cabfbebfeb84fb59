import { ModalClosedError, ModalNotProvidedError, SessionError, V1_ERRORS } from '@pairlink/protocol'
import type { Client, ConnectReturnType } from '../createClient.js'
import { getInternal } from '../session.js'
import { type CreateSessionParameters, createSession } from './createSession.js'

/** Parameters of {@link connect}. */
export type ConnectParameters = CreateSessionParameters

/** What {@link connect} resolves with: the approved session. */
export type { ConnectReturnType }

/**
 * Dapp: creates a session request, shows its URI in the modal and resolves when the wallet approves. Rejects with
 * `User close QRCode Modal` when the person closes the modal, and with the wallet's message (or `Session Rejected`)
 * when the wallet rejects — v1 left that promise pending forever. Closing means no: a wallet approving the closed
 * request later gets its session killed (`wc_sessionUpdate` with `approved: false`) and nothing connects here.
 *
 * @example
 * const { accounts, chainId } = await client.connect({ chainId: 1 })
 */
export async function connect(
  client: Client,
  parameters: ConnectParameters = {},
): Promise<ConnectReturnType> {
  const internal = getInternal(client)
  const modal = internal.modal
  if (!modal) throw new ModalNotProvidedError(V1_ERRORS.QRCODE_MODAL_NOT_PROVIDED)
  await internal.ready
  if (internal.connected) throw new SessionError(V1_ERRORS.SESSION_CONNECTED)
  const uri = await createSession(client, parameters)
  const handshake = internal.handshake
  if (!handshake) throw new SessionError(V1_ERRORS.SESSION_DISCONNECTED)
  return new Promise<ConnectReturnType>((resolve, reject) => {
    let settled = false
    const onUserClose = () => {
      if (settled) return
      settled = true
      // Closing means no (unlike v1, where a wallet approving later still connected): the handshake is abandoned, a
      // wallet that approves it is told no (see `receive.ts`), and the next `connect` shows a fresh URI.
      internal.handshakeAbandoned = true
      internal.uri = undefined
      internal.emitter.emit('modal_closed', {})
      reject(new ModalClosedError(V1_ERRORS.QRCODE_MODAL_USER_CLOSED))
    }
    handshake.promise.then(
      (value) => {
        settled = true
        resolve(value)
      },
      (error: unknown) => {
        settled = true
        reject(error)
      },
    )
    modal.open(uri, onUserClose, internal.modalOptions)
    // Later changes reach the modal from the transport; one that happened before it opened is said now.
    if (internal.bridgeUnreachable) modal.setStatus?.('unreachable')
  })
}
