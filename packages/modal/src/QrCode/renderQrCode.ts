import { encodeQr } from './encodeQr.js'

const SVG_NS = 'http://www.w3.org/2000/svg'

/**
 * Draws the full `wc:` URI as an SVG QR code (class `walletconnect-qrcode__image`, as v1), dark on a white square
 * whatever the theme, so phones scan it in dark mode too.
 *
 * @example
 * card.append(renderQrCode(document, uri, 'QR Code'))
 */
export function renderQrCode(doc: Document, uri: string, label: string): SVGSVGElement {
  const { size, path } = encodeQr(uri)
  const svg = doc.createElementNS(SVG_NS, 'svg')
  svg.setAttribute('class', 'walletconnect-qrcode__image')
  svg.setAttribute('viewBox', `0 0 ${size} ${size}`)
  svg.setAttribute('role', 'img')
  svg.setAttribute('aria-label', label)
  svg.setAttribute('shape-rendering', 'crispEdges')
  const background = doc.createElementNS(SVG_NS, 'rect')
  background.setAttribute('width', String(size))
  background.setAttribute('height', String(size))
  background.setAttribute('fill', '#fff')
  const modules = doc.createElementNS(SVG_NS, 'path')
  modules.setAttribute('d', path)
  modules.setAttribute('fill', '#000')
  svg.append(background, modules)
  return svg
}
