import type { Locator } from '@playwright/test'
import jsqr from 'jsqr'
import { PNG } from 'pngjs'

// jsqr is CommonJS typed as an ES module: under NodeNext its default import is the whole `module.exports`, whose
// `default` is the decoder (the package sets `module.exports.default` to it, so bundlers agree).
const jsQR = jsqr.default

/** Screenshots the QR code as the person sees it and decodes it with jsQR. */
export async function decodeQr(qr: Locator): Promise<string | undefined> {
  const png = PNG.sync.read(await qr.screenshot())
  return jsQR(new Uint8ClampedArray(png.data), png.width, png.height)?.data
}
