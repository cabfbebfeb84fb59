import { close, open } from '../../../../packages/modal/src/open.js'

declare global {
  interface Window {
    pairlink: { open: typeof open; close: typeof close; userCloses: number }
  }
}

window.pairlink = { open, close, userCloses: 0 }
const params = new URLSearchParams(location.search)
// `?options=` (JSON) adds modal options, as an app passes its own (theme, language, title, registryUrl).
const options = JSON.parse(params.get('options') ?? '{}') as Parameters<typeof open>[2]
document.getElementById('opener')?.addEventListener('click', () => {
  open(params.get('uri') ?? '', () => window.pairlink.userCloses++, { registryUrl: '/registry', ...options })
})
