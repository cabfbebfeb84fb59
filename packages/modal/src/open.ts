import { hasStrings, loadStrings, resolveModalLanguage } from './locales/strings.js'
import {
  type CreateModalParameters,
  checkUri,
  createModal,
  type Modal,
  type ModalOptions,
  type ModalStatus,
} from './QrModal/createModal.js'
import { sameOptions } from './QrModal/sameOptions.js'

let modal: Modal | undefined
let modalOptions: ModalOptions = {}
// A modal waiting for its language's strings (the first modal in German fetches the German table): shown once they
// are in, unless `close()` or another `open()` came first. Its last `setStatus` is applied as it opens.
let waiting: { parameters: CreateModalParameters; status?: [ModalStatus, string | undefined] } | undefined

/** Mounts a modal now when its language is loaded, else once it is (in English if the table cannot be fetched). */
function show(parameters: CreateModalParameters, options: ModalOptions | undefined): void {
  const language = resolveModalLanguage(parameters.language)
  if (hasStrings(language)) {
    waiting = undefined
    modal = createModal(parameters)
    modalOptions = options ?? {}
    return
  }
  if (parameters.uri !== '' || parameters.status !== 'refused') checkUri(parameters.uri)
  const request: NonNullable<typeof waiting> = { parameters }
  waiting = request
  const mount = () => {
    if (waiting !== request) return
    waiting = undefined
    modal = createModal(request.parameters)
    modalOptions = options ?? {}
    if (request.status) modal.setStatus(...request.status)
  }
  loadStrings(language).then(mount, mount)
}

/**
 * Opens the modal for a `wc:` URI, with the signature of v1's qrcode-modal so it drops in as the `qrcodeModal`
 * of `@walletconnect/client@1.8.0` and as the modal adapter of the Pairlink client. `onUserClose` runs once, after
 * the 300 ms fade, when the person closes the modal. On a modal already open with the same options (compared by
 * value; callbacks aside) the new URI replaces the old one in place — QR code, copy link, deep links, countdown —
 * without closing or re-animating it: that is how a client hands over a fresh pairing (see `onExpired`); the new
 * `onUserClose`, `onExpired` and `onInjected` replace the old ones, which are not called. Other options open a new modal in its
 * place. Unlike v1, the URI is never logged. A modal in a language not loaded yet opens once its strings are in (see
 * `loadStrings`), so it never shows English first.
 *
 * @example
 * import QRCodeModal from '@pairlink/modal/open'
 * new WalletConnect({ bridge, qrcodeModal: QRCodeModal, qrcodeModalOptions: { registryUrl: '/registry/wallets.json' } })
 */
export function open(uri: string, onUserClose?: () => void, options?: ModalOptions): void {
  if (!waiting && modal?.isOpen && sameOptions(options ?? {}, modalOptions)) {
    modal.setUri(uri, { onUserClose, onExpired: options?.onExpired, onInjected: options?.onInjected })
    return
  }
  show({ ...options, uri, onUserClose }, options)
}

/** Closes the modal the app opened: fades out without calling `onUserClose`. A no-op when none is open. */
export function close(): void {
  waiting = undefined
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
  if (waiting) waiting.status = [status, message]
  else modal?.setStatus(status, message)
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
  if (!waiting && modal?.isOpen) {
    modal.setStatus('refused', message)
    return
  }
  show({ ...options, uri: '', onUserClose, status: 'refused', message }, options)
}

/** The v1 qrcode-modal object shape, `{ open, close }`, plus the optional `setStatus` and `showError`. */
const qrcodeModal = { open, close, setStatus, showError }
export default qrcodeModal
