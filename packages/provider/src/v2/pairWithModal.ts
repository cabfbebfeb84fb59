import type { ModalAdapter } from '@pairlink/client'
import {
  type ConnectParameters,
  connect,
  RelayRefusedError,
  type Session,
  type SignClient,
  SignError,
} from '@pairlink/client/v2'
import { ModalClosedError, SessionRejectedError, V1_ERRORS } from '@pairlink/protocol'

/** Parameters of {@link pairWithModal}. */
export type PairWithModalParameters = {
  client: SignClient
  modal: ModalAdapter
  /** Passed to `modal.open`, with `onExpired` added. */
  modalOptions: Record<string, unknown> | undefined
  /** What each proposal asks for (namespaces, the pairing's expiry). */
  proposal: ConnectParameters
  /** Each session a wallet settles, also one that comes after the person closed the modal (v1 connects it too). */
  onSession: (session: Session) => void
  /** The person closed the modal. */
  onClose: () => void
  /** Settles with a session another tab of the dapp connected meanwhile: the modal closes, and that is the outcome. */
  joined?: Promise<Session> | undefined
}

/**
 * Proposes a session and shows its pairing URI in the modal until a wallet settles one (resolves with it), the wallet
 * rejects it (v1's `SessionRejectedError`, with the wallet's words) or the person closes the modal (v1's
 * `ModalClosedError`, `User close QRCode Modal`). A URI never shows dead: the modal's `onExpired` (called before the
 * expiry) gets a fresh pairing, opened in the same modal with the same options; without it, the proposal's expiry
 * does.
 *
 * @example
 * const session = await pairWithModal({ client, modal, modalOptions, proposal, onSession: use, onClose })
 */
export function pairWithModal(parameters: PairWithModalParameters): Promise<Session> {
  const { client, modal, proposal } = parameters
  return new Promise((resolve, reject) => {
    let settled = false
    // Each fresh URI is one attempt; only the newest one's expiry asks for the next.
    let attempt = 0
    const settle = (fn: () => void) => {
      if (settled) return
      settled = true
      fn()
    }
    const onUserClose = () =>
      settle(() => {
        parameters.onClose()
        reject(new ModalClosedError(V1_ERRORS.QRCODE_MODAL_USER_CLOSED))
      })
    const options = {
      ...parameters.modalOptions,
      // A relay that refuses the site while a fresh code is fetched will refuse every next one: the connect ends with
      // its refusal (the app names the fix) instead of a modal offering `Try again` against it.
      onExpired: () =>
        propose().catch((error: unknown) => {
          if (error instanceof RelayRefusedError) {
            modal.close()
            settle(() => reject(error))
          }
          throw error
        }),
    }

    async function propose(): Promise<void> {
      // The modal was closed (or a wallet answered) meanwhile: no new pairing for nobody to see.
      if (settled) return
      const current = ++attempt
      const { uri, approval } = await connect(client, proposal)
      approval().then(
        (session) => {
          parameters.onSession(session)
          modal.close()
          settle(() => resolve(session))
        },
        (error: unknown) => {
          if (settled) return
          // The URI died before any wallet answered: a fresh one in the same modal (one the modal asked for already,
          // through `onExpired`, leaves this one's expiry without effect).
          if (error instanceof SignError && error.code === 'ERR_PROPOSAL_EXPIRED') {
            if (current === attempt) propose().catch(() => {})
            return
          }
          modal.close()
          settle(() => reject(toSessionError(error)))
        },
      )
      if (!settled && uri) modal.open(uri, onUserClose, options)
    }
    parameters.joined?.then((session) => {
      if (settled) return
      modal.close()
      settle(() => resolve(session))
    })
    propose().catch((error: unknown) => settle(() => reject(error)))
  })
}

/** A wallet's refusal of the proposal as v1's `SessionRejectedError`, with the wallet's words. */
function toSessionError(error: unknown): unknown {
  if (error instanceof SignError && typeof error.code === 'number')
    return new SessionRejectedError(error.message || V1_ERRORS.SESSION_REJECTED, { cause: error })
  return error
}
