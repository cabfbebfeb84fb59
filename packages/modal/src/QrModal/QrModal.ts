import { useEffect, useRef } from 'react'
import { createModal, type Modal, type ModalOptions, type ModalStatus } from './createModal.js'

/** Props of {@link QrModal}. */
export type QrModalProps = ModalOptions & {
  /** The full `wc:` pairing URI. */
  uri: string
  /** Shows the modal; turning it to `false` fades it out without calling `onClose`. @default true */
  open?: boolean | undefined
  /** Runs once, after the fade-out, when the person closes the modal (button, Escape, backdrop). */
  onClose?: (() => void) | undefined
  /** Whether the bridge can be reached (see {@link ModalStatus}); changing it keeps the same modal. @default 'ready' */
  status?: ModalStatus | undefined
}

/**
 * The QR-code modal as a React component: a thin wrapper that mounts the same framework-free modal as `open()`
 * on `document.body` while `open` is true. It renders nothing in place.
 *
 * @example
 * {uri && <QrModal uri={uri} registryUrl="/registry/wallets.json" onClose={() => setUri(undefined)} />}
 */
export function QrModal({
  uri,
  open = true,
  onClose,
  fetch,
  status = 'ready',
  ...options
}: QrModalProps): null {
  const mounted = useRef<Modal | undefined>(undefined)
  const callbacks = useRef({ onClose, fetch, status })
  callbacks.current = { onClose, fetch, status }
  // Arrays in props are new on each render; compare options by value so the modal only remounts on real changes.
  const key = JSON.stringify(options)
  useEffect(() => {
    if (!open) return
    const modal = createModal({
      ...(JSON.parse(key) as ModalOptions),
      uri,
      fetch: (input, init) => (callbacks.current.fetch ?? globalThis.fetch)(input, init),
      onUserClose: () => callbacks.current.onClose?.(),
    })
    modal.setStatus(callbacks.current.status)
    mounted.current = modal
    return () => {
      mounted.current = undefined
      modal.close()
    }
  }, [open, uri, key])
  useEffect(() => mounted.current?.setStatus(status), [status])
  return null
}
