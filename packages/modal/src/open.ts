import { createModal, type Modal, type ModalOptions } from './QrModal/createModal.js'

let modal: Modal | undefined

/**
 * Opens the modal for a `wc:` URI, with the signature of v1's qrcode-modal so it drops in as the `qrcodeModal`
 * of `@walletconnect/client@1.8.0` and as the modal adapter of the Pairlink client. `onUserClose` runs once, after
 * the 300 ms fade, when the person closes the modal; an open modal is replaced. Unlike v1, the URI is never logged.
 *
 * @example
 * import QRCodeModal from '@pairlink/modal/open'
 * new WalletConnect({ bridge, qrcodeModal: QRCodeModal, qrcodeModalOptions: { registryUrl: '/registry/wallets.json' } })
 */
export function open(uri: string, onUserClose?: () => void, options?: ModalOptions): void {
  modal = createModal({ ...options, uri, onUserClose })
}

/** Closes the modal the app opened: fades out without calling `onUserClose`. A no-op when none is open. */
export function close(): void {
  modal?.close()
  modal = undefined
}

/** The v1 qrcode-modal object shape, `{ open, close }`. */
const qrcodeModal = { open, close }
export default qrcodeModal
