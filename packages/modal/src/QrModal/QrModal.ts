import { type RefObject, useEffect, useRef } from 'react'
import { hasStrings, loadStrings, resolveModalLanguage } from '../locales/strings.js'
import {
  createModal,
  type Modal,
  type ModalCallbacks,
  type ModalOptions,
  type ModalStatus,
} from './createModal.js'
import { sameOptions } from './sameOptions.js'

/** Props of {@link QrModal}. */
export type QrModalProps = ModalOptions & {
  /** The full `wc:` pairing URI; changing it swaps the code in the open modal, which stays open. */
  uri: string
  /** Shows the modal; turning it to `false` fades it out without calling `onClose`. @default true */
  open?: boolean | undefined
  /** Runs once, after the fade-out, when the person closes the modal (button, Escape, backdrop). */
  onClose?: (() => void) | undefined
  /**
   * Whether the bridge can be reached, or the relay refused the site (see {@link ModalStatus}); changing it keeps the
   * same modal. With `'refused'`, `uri` may be `''`. @default 'ready'
   */
  status?: ModalStatus | undefined
  /** The message of a `'refused'` status. @default `relay_refused` in the modal's language */
  message?: string | undefined
}

/**
 * The QR-code modal as a React component: a thin wrapper that mounts the same framework-free modal as `open()`
 * on `document.body` while `open` is true. It renders nothing in place. A new `uri` is swapped into the open modal
 * in place (QR code, links, countdown), so `onExpired` answers by setting the fresh pairing's URI.
 *
 * @example
 * {uri && <QrModal uri={uri} registryUrl="/registry/wallets.json" onClose={() => setUri(undefined)} />}
 */
export function QrModal({
  uri,
  open = true,
  onClose,
  onExpired,
  onInjected,
  fetch,
  status = 'ready',
  message,
  ...options
}: QrModalProps): null {
  const mounted = useRef<Modal | undefined>(undefined)
  const callbacks = useRef({ uri, onClose, onExpired, onInjected, fetch, status, message })
  callbacks.current = { uri, onClose, onExpired, onInjected, fetch, status, message }
  const refreshes = onExpired !== undefined
  const injects = onInjected !== undefined
  // Options are compared by value (arrays in props are new on each render; `returnFocusTo` is an element), so the
  // modal only remounts when they really change.
  const kept = useRef(options)
  if (!sameOptions(kept.current, options)) kept.current = options
  const stableOptions = kept.current
  useEffect(() => {
    if (!open) return
    let modal: Modal | undefined
    let live = true
    const mount = () => {
      if (!live) return
      const { uri, onExpired, onInjected, status, message } = callbacks.current
      modal = createModal({
        ...stableOptions,
        ...handlers(callbacks, onExpired !== undefined, onInjected !== undefined),
        uri,
        status,
        message,
        fetch: (input, init) => (callbacks.current.fetch ?? globalThis.fetch)(input, init),
      })
      modal.setStatus(status, message)
      mounted.current = modal
    }
    // A language not loaded yet opens once its strings are in (in English if they cannot be fetched): no English
    // first.
    const language = resolveModalLanguage(stableOptions.language)
    if (hasStrings(language)) mount()
    else loadStrings(language).then(mount, mount)
    return () => {
      live = false
      mounted.current = undefined
      modal?.close()
    }
  }, [open, stableOptions])
  // A new `uri` (or an `onExpired` or `onInjected` given or taken away) goes into the open modal in place.
  useEffect(() => {
    if (uri) mounted.current?.setUri(uri, handlers(callbacks, refreshes, injects))
  }, [uri, refreshes, injects])
  useEffect(() => mounted.current?.setStatus(status, message), [status, message])
  return null
}

/**
 * The modal's callbacks, calling the latest props; `onExpired` and `onInjected` only when there is one (the modal
 * says so, or lists the browser wallets).
 */
function handlers(
  callbacks: RefObject<Pick<QrModalProps, 'onClose' | 'onExpired' | 'onInjected'>>,
  refreshes: boolean,
  injects: boolean,
): ModalCallbacks {
  return {
    onUserClose: () => callbacks.current.onClose?.(),
    onExpired: refreshes ? () => callbacks.current.onExpired?.() : undefined,
    onInjected: injects ? (wallet) => callbacks.current.onInjected?.(wallet) : undefined,
  }
}
