import { h } from '../h.js'
import type { Wallet } from '../registry/formatDeepLink.js'
import { getMonogram } from './getMonogram.js'

/**
 * A wallet's icon: its image when it has one (falling back to the monogram if it fails to load), else the monogram
 * (see {@link getMonogram}). The image is only ever an `<img>`, so an SVG runs no script.
 */
export function createWalletIcon(wallet: Pick<Wallet, 'name' | 'shortName' | 'color' | 'logo'>): HTMLElement {
  const { initials, background, foreground } = getMonogram(wallet)
  const icon = h('span', { class: 'icon', 'aria-hidden': 'true' })
  const monogram = () => {
    icon.setAttribute('style', `background-color:${background};color:${foreground}`)
    icon.replaceChildren(initials)
  }
  if (!wallet.logo) {
    monogram()
    return icon
  }
  icon.append(
    h('img', {
      src: wallet.logo,
      alt: '',
      width: 52,
      height: 52,
      loading: 'lazy',
      decoding: 'async',
      referrerpolicy: 'no-referrer',
      onerror: monogram,
    }),
  )
  return icon
}
