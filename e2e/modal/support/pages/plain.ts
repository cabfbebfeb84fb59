import { close, open } from '../../../../packages/modal/src/open.js'

declare global {
  interface Window {
    pairlink: { open: typeof open; close: typeof close; userCloses: number }
  }
}

window.pairlink = { open, close, userCloses: 0 }
const params = new URLSearchParams(location.search)
document.getElementById('opener')?.addEventListener('click', () => {
  open(params.get('uri') ?? '', () => window.pairlink.userCloses++, { registryUrl: '/registry' })
})
