import type { ModalAdapter } from '@pairlink/client'
import {
  type AuthenticateParameters,
  abandon,
  type ConnectParameters,
  connect,
  disconnect,
  RelayRefusedError,
  SDK_ERRORS,
  type Session,
  type SignClient,
  SignError,
} from '@pairlink/client/v2'
import { ModalClosedError, SessionRejectedError, V1_ERRORS } from '@pairlink/protocol'
import type { Cacao } from '@pairlink/protocol/v2'

/** Parameters of {@link pairWithModal}. */
export type PairWithModalParameters = {
  client: SignClient
  modal: ModalAdapter
  /** Passed to `modal.open`, with `onExpired` added. */
  modalOptions: Record<string, unknown> | undefined
  /** What each proposal asks for (namespaces, the pairing's expiry). */
  proposal: ConnectParameters
  /**
   * Asks for a sign-in with the session instead (one-click auth): each URI carries `wc_sessionAuthenticate` and, for
   * wallets without it, a proposal of the same pairing (from this request's chains and methods).
   */
  authenticate?: AuthenticateParameters | undefined
  /**
   * Each session a wallet settles, with its CACAOs when it signed in; not one after the person closed the modal: that
   * wallet is refused.
   */
  onSession: (session: Session, auths: Cacao[] | undefined) => void
  /** The person closed the modal. */
  onClose: () => void
  /** Settles with a session another tab of the dapp connected meanwhile: the modal closes, and that is the outcome. */
  joined?: Promise<Session> | undefined
}

/** What {@link pairWithModal} resolves with: the session, and the wallet's CACAOs when it signed in with it. */
export type PairWithModalReturnType = { session: Session; auths?: Cacao[] | undefined }

/**
 * Proposes a session (or, with `authenticate`, a session and a sign-in) and shows its pairing URI in the modal until a
 * wallet settles one (resolves with it, and the CACAOs of a wallet that signed in), the wallet rejects it (v1's
 * `SessionRejectedError`, with the wallet's words) or the person closes the modal (v1's `ModalClosedError`, `User close
 * QRCode Modal`). Closing means no: every pairing the modal showed is abandoned (`abandon`), so a wallet that approves
 * one later is refused and nothing connects. A URI never shows dead: the modal's `onExpired` (called before the
 * expiry) gets a fresh pairing, opened in the same modal with the same options; without it, the proposal's expiry
 * does.
 *
 * @example
 * const session = await pairWithModal({ client, modal, modalOptions, proposal, onSession: use, onClose })
 */
export function pairWithModal(parameters: PairWithModalParameters): Promise<PairWithModalReturnType> {
  const { client, modal, proposal } = parameters
  return new Promise((resolve, reject) => {
    let settled = false
    let closed = false
    // Each fresh URI is one attempt; only the newest one's expiry asks for the next.
    let attempt = 0
    // The pairings the modal showed: closing it abandons each.
    const shown: string[] = []
    const settle = (fn: () => void) => {
      if (settled) return
      settled = true
      fn()
    }
    const onUserClose = () =>
      settle(() => {
        closed = true
        for (const pairingTopic of shown) abandon(client, { pairingTopic }).catch(() => {})
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
      const { uri, approval } = await start()
      approval().then(
        ({ session, auths }) => {
          // Settled just as the person closed the modal, before the abandon took: still no.
          if (closed)
            return void disconnect(client, { topic: session.topic, reason: SDK_ERRORS.USER_REJECTED }).catch(
              () => {},
            )
          parameters.onSession(session, auths)
          modal.close()
          settle(() => resolve(auths ? { session, auths } : { session }))
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
      // `wc:{topic}@2?…`: the client made it, no need to check it again.
      if (uri) shown.push(uri.slice(3, uri.indexOf('@')))
      if (!settled && uri) modal.open(uri, onUserClose, options)
      // Closed while this pairing was being made: it is abandoned too.
      else if (closed && uri) abandon(client, { pairingTopic: shown.at(-1) as string }).catch(() => {})
    }
    /** One pairing: a proposal, or a sign-in request with its fallback proposal (both end as a session). */
    async function start() {
      if (!parameters.authenticate) {
        const { uri, approval } = await connect(client, proposal)
        return {
          uri,
          approval: async (): Promise<PairWithModalReturnType> => ({ session: await approval() }),
        }
      }
      const { startAuthenticate } = await import('./startAuthenticate.js')
      return startAuthenticate(client, {
        ...parameters.authenticate,
        pairingExpiry: parameters.authenticate.pairingExpiry ?? proposal.expiry,
      })
    }
    parameters.joined?.then((session) => {
      if (settled) return
      modal.close()
      settle(() => resolve({ session }))
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
