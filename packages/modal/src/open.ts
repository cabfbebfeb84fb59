import { createModal, type Modal, type ModalOptions, type ModalStatus } from './QrModal/createModal.js'
import { sameOptions } from './QrModal/sameOptions.js'

let modal: Modal | undefined
let modalOptions: ModalOptions = {}

/**
 * Opens the modal for a `wc:` URI, with the signature of v1's qrcode-modal so it drops in as the `qrcodeModal`
 * of `@walletconnect/client@1.8.0` and as the modal adapter of the Pairlink client. `onUserClose` runs once, after
 * the 300 ms fade, when the person closes the modal. On a modal already open with the same options (compared by
 * value; callbacks aside) the new URI replaces the old one in place — QR code, copy link, deep links, countdown —
 * without closing or re-animating it: that is how a client hands over a fresh pairing (see `onExpired`); the new
 * `onUserClose`, `onExpired` and `onInjected` replace the old ones, which are not called. Other options open a new modal in its
 * place. Unlike v1, the URI is never logged.
 *
 * @example
 * import QRCodeModal from '@pairlink/modal/open'
 * new WalletConnect({ bridge, qrcodeModal: QRCodeModal, qrcodeModalOptions: { registryUrl: '/registry/wallets.json' } })
 */
export function open(uri: string, onUserClose?: () => void, options?: ModalOptions): void {
  if (modal?.isOpen && sameOptions(options ?? {}, modalOptions)) {
    modal.setUri(uri, { onUserClose, onExpired: options?.onExpired, onInjected: options?.onInjected })
    return
  }
  modal = createModal({ ...options, uri, onUserClose })
  modalOptions = options ?? {}
}

/** Closes the modal the app opened: fades out without calling `onUserClose`. A no-op when none is open. */
export function close(): void {
  modal?.close()
  modal = undefined
}

/**
 * Tells the open modal whether the bridge can be reached: `'unreachable'` shows "Can't reach the bridge —
 * retrying…" and marks the QR code as not ready, `'refused'` puts `message` (the relay refused the site) in place of
 * the code, `'ready'` clears either. A no-op when no modal is open. The Pairlink client calls it (as the modal
 * adapter's optional `setStatus`) while it retries the bridge.
 *
 * @example
 * client.on('transport', ({ state }) => state === 'open' && setStatus('ready'))
 */
export function setStatus(status: ModalStatus, message?: string): void {
  modal?.setStatus(status, message)
}

/**
 * Shows why no wallet can pair — the relay refused the site (`ERR_RELAY_REFUSED`) — in the open modal, in place of
 * its code, or in a modal opened for it (a refusal comes before the first code exists), with the page's browser
 * wallets still offered when `options.onInjected` is given. No retry button: the relay would refuse again until the
 * operator fixes the configuration; the person closes it (`onUserClose`) and may press Connect again.
 *
 * @example
 * connect().catch((error) => error.code === 'ERR_RELAY_REFUSED' && showError(describe(error), undefined, options))
 */
export function showError(message: string, onUserClose?: () => void, options?: ModalOptions): void {
  if (modal?.isOpen) {
    modal.setStatus('refused', message)
    return
  }
  modal = createModal({ ...options, uri: '', onUserClose, status: 'refused', message })
  modalOptions = options ?? {}
}

/** The v1 qrcode-modal object shape, `{ open, close }`, plus the optional `setStatus` and `showError`. */
const qrcodeModal = { open, close, setStatus, showError }
export default qrcodeModal
