import type { InjectedWallet } from '../../../../packages/modal/src/injected/injectedWallets.js'
import { close, open } from '../../../../packages/modal/src/open.js'

declare global {
  interface Window {
    pairlink: {
      open: typeof open
      close: typeof close
      userCloses: number
      expiries: number
      /** The browser wallet chosen in the modal (`?injected`), as `onInjected` handed it over. */
      injected?: InjectedWallet
    }
  }
}

window.pairlink = { open, close, userCloses: 0, expiries: 0 }
const params = new URLSearchParams(location.search)
// `?options=` (JSON) adds modal options, as an app passes its own (theme, language, title, registryUrl).
const options = JSON.parse(params.get('options') ?? '{}') as Parameters<typeof open>[2]
// `?refresh` gives the modal an `onExpired`, counted, as a client that gets a fresh pairing would.
const onExpired = params.has('refresh') ? () => void window.pairlink.expiries++ : undefined
// `?injected` offers the page's browser wallets, keeping the one chosen, as an app would connect through it.
const onInjected = params.has('injected')
  ? (wallet: InjectedWallet) => {
      window.pairlink.injected = wallet
    }
  : undefined
document.getElementById('opener')?.addEventListener('click', () => {
  open(params.get('uri') ?? '', () => window.pairlink.userCloses++, {
    registryUrl: '/registry',
    ...options,
    onExpired,
    onInjected,
  })
})
