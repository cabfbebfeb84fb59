import jsqr from 'jsqr'
import { describe, expect, test } from 'vitest'
import { QrCodeError } from '../errors.js'
import { encodeQr, QR_LEVEL_M_MAX_BYTES } from './encodeQr.js'

// jsqr is CommonJS typed as an ES module: under NodeNext its default import is the whole `module.exports`, whose
// `default` is the decoder (the package sets `module.exports.default` to it, so bundlers agree).
const jsQR = jsqr.default

const uri =
  'wc:8a5e5bdc-a0e4-4702-ba63-8f1a5655744f@1?bridge=https%3A%2F%2Fbridge.walletconnect.org&key=41791102999c339c844880b23950704cc43aa840f3739e365323cda4dfa89e7a'

/** Rasterises the SVG path (runs of `M x y h w v1 h-w z`) and decodes it with a real QR decoder. */
function decode(text: string): string | undefined {
  const { size, path } = encodeQr(text)
  const scale = 4
  const width = size * scale
  const pixels = new Uint8ClampedArray(width * width * 4).fill(255)
  for (const [, x, y, w] of path.matchAll(/M(\d+) (\d+)h(\d+)/g)) {
    for (let dy = 0; dy < scale; dy++) {
      const row = (Number(y) * scale + dy) * width
      pixels.fill(0, (row + Number(x) * scale) * 4, (row + (Number(x) + Number(w)) * scale) * 4)
    }
  }
  for (let i = 3; i < pixels.length; i += 4) pixels[i] = 255
  return jsQR(pixels, width, width)?.data
}

describe('encodeQr', () => {
  test('default: a v1 URI at level M with a quiet zone of 4, decodable to exactly the URI', () => {
    const qr = encodeQr(uri)
    expect(qr.level).toBe('M')
    expect(qr.path).toMatch(/^M4 4h7v1h-7z/)
    expect(decode(uri)).toBe(uri)
  })

  test('behavior: decodes to exactly the input across lengths and characters', () => {
    for (let length = 10; length < 600; length += 37) {
      const text = `wc:${'0123456789abcdef-%&?=@'.repeat(30).slice(0, length)}`
      expect(decode(text)).toBe(text)
    }
  })

  test('args: long URIs drop to level L', () => {
    expect(encodeQr(`wc:${'a'.repeat(QR_LEVEL_M_MAX_BYTES - 3)}`).level).toBe('M')
    expect(encodeQr(`wc:${'a'.repeat(QR_LEVEL_M_MAX_BYTES - 2)}`).level).toBe('L')
  })

  test('error: too long for any QR code', () => {
    expect(() => encodeQr(`wc:${'a'.repeat(3000)}`)).toThrowError(QrCodeError)
  })
})
