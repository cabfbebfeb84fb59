import { createCopyLink } from '../CopyLink/createCopyLink.js'
import type { CodeState } from '../Countdown/createCountdown.js'
import { h } from '../h.js'
import type { Strings } from '../locales/strings.js'
import { renderQrCode } from '../QrCode/renderQrCode.js'

/** Parameters of {@link createQrPanel}. */
export type CreateQrPanelParameters = { uri: string; strings: Strings }

/** What the QR code says beside the code itself: whether it can be scanned, and whether the bridge is reachable. */
type QrPanelState = { code: CodeState; unreachable: boolean }

/** The QR view: built once per modal, its URI and state changed in place. */
export type QrPanel = {
  element: HTMLElement
  /** Draws `uri` as the QR code and has the copy button copy it. */
  setUri: (uri: string) => void
  /** Covers the code and disables copying unless the code is live; marks it busy and says why. */
  setState: (state: QrPanelState) => void
  dispose: () => void
}

/**
 * The QR view (reference §6.3): `Scan QR code with a WalletConnect-compatible wallet`, the URI as a QR code, and
 * `Copy to clipboard`. An expired code is blurred under a veil (createStyles) so that no camera reads it, and cannot
 * be copied; `aria-busy` marks it while a new one comes or the bridge is unreachable, `aria-describedby` points at
 * the line that says why (`#expiry`, `#bridge-status`).
 *
 * @example
 * const panel = createQrPanel({ uri, strings }); panel.setState({ code: 'expired', unreachable: false })
 */
export function createQrPanel({ uri, strings }: CreateQrPanelParameters): QrPanel {
  let state: QrPanelState = { code: 'live', unreachable: false }
  let current = uri
  const copyLink = createCopyLink({ uri, strings })
  const box = h('div', { class: 'qrbox' })
  let qrCode: SVGSVGElement

  const mark = () => {
    const { code, unreachable } = state
    const dead = code !== 'live'
    if (unreachable || code === 'refreshing') qrCode.setAttribute('aria-busy', 'true')
    else qrCode.removeAttribute('aria-busy')
    // The line that says why it cannot be scanned: the bridge first, as a new code would not help.
    if (unreachable || dead) qrCode.setAttribute('aria-describedby', unreachable ? 'bridge-status' : 'expiry')
    else qrCode.removeAttribute('aria-describedby')
    box.classList.toggle('dead', dead)
  }

  const draw = () => {
    qrCode = renderQrCode(document, current, strings.qrcode)
    qrCode.setAttribute('class', 'walletconnect-qrcode__image qr')
    box.replaceChildren(qrCode)
    mark()
  }

  draw()
  return {
    element: h(
      'div',
      {},
      h('p', { id: 'walletconnect-qrcode-text', class: 'text' }, strings.scan_qrcode_with_wallet),
      box,
      copyLink.element,
    ),
    setUri: (next) => {
      current = next
      draw()
      copyLink.setUri(state.code === 'live' ? current : undefined)
    },
    setState: (next) => {
      const copyable = state.code === 'live'
      state = next
      mark()
      if (copyable !== (next.code === 'live')) copyLink.setUri(next.code === 'live' ? current : undefined)
    },
    dispose: copyLink.dispose,
  }
}
