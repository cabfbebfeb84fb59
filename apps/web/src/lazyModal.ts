import type { ModalAdapter } from '@pairlink/client'

type ModalModule = typeof import('./modal.js')
type ModalOptions = Parameters<ModalModule['open']>[2]

let loading: Promise<ModalModule> | undefined
// What had focus when the modal opened, kept while it is open: a fresh v2 URI is then opened with the very same
// options, which the modal takes as "swap the URI in place" (no close, no new animation).
let returnFocusTo: Element | null | undefined
let shown = false
let remembered = false

/**
 * Remembers what has focus now as where it returns when the next modal closes: for a pairing whose URI takes a moment
 * (v2 loads its client and asks the relay first), by which time the Connect button the app disabled has lost focus.
 *
 * @example
 * onClick={() => { rememberFocus(); void connect() }}
 */
export function rememberFocus(): void {
  returnFocusTo = globalThis.document?.activeElement
  remembered = true
}

/** Runs `call` on the modal module once it is loaded; calls run in the order they were made. */
function withModal(call: (modal: ModalModule) => void): void {
  loading?.then(call, () => {})
}

/**
 * Shows in the modal that the relay refused the site (`message`, in place of the code): in the open modal, or in one
 * opened for it, as a refusal comes before any code. Loads the modal first when it is not there yet.
 *
 * @example
 * showModalError(describeError(error, 'connect'), modalOptions)
 */
export function showModalError(message: string, options?: ModalOptions): void {
  const attempt = loading ?? import('./modal.js')
  loading = attempt
  const focus = returnFocusTo
  attempt.then(
    (modal) => modal.showError(message, () => (shown = false), { returnFocusTo: focus, ...options }),
    () => {
      if (loading === attempt) loading = undefined
    },
  )
  shown = true
}

/**
 * The client's modal adapter over `@pairlink/modal`, loaded the first time a QR code is shown: the first screen
 * never downloads the modal (its QR encoder and wallet list). `close` and `setStatus` before any `open` are no-ops,
 * as they are in the modal itself with no modal open; every call runs in order once the module is there. When the
 * module cannot be loaded (the network dropped), the pairing ends as if the person closed the modal, and the next
 * `open` tries again.
 *
 * @example
 * createClient({ bridge, clientMeta, modal: lazyModal, modalOptions: { registryUrl } })
 */
export const lazyModal: ModalAdapter = {
  open(uri, onUserClose, options) {
    // Focus returns, on close, to what had it now (the Connect button the app disables while it pairs), not to what
    // has it once the module is in.
    if (!shown && !remembered) returnFocusTo = globalThis.document?.activeElement
    shown = true
    remembered = false
    const closed = () => {
      shown = false
      onUserClose()
    }
    const attempt = loading ?? import('./modal.js')
    loading = attempt
    const focus = returnFocusTo
    const given = options as ModalOptions
    // A browser wallet chosen in the modal takes over: the pairing no wallet will answer now ends as a closed modal.
    const chosen = given?.onInjected
    const onInjected =
      chosen &&
      ((wallet: Parameters<typeof chosen>[0]) => {
        chosen(wallet)
        closed()
      })
    attempt.then(
      (modal) => modal.open(uri, closed, { returnFocusTo: focus, ...given, onInjected }),
      () => {
        if (loading === attempt) loading = undefined
        closed()
      },
    )
  },
  close() {
    shown = false
    withModal((modal) => modal.close())
  },
  setStatus(status) {
    withModal((modal) => modal.setStatus(status))
  },
}
