import type { Locator } from '@playwright/test'
import jsQR from 'jsqr'
import { PNG } from 'pngjs'

/** Screenshots the QR code as the person sees it and decodes it with jsQR. */
export async function decodeQr(qr: Locator): Promise<string | undefined> {
  const png = PNG.sync.read(await qr.screenshot())
  return jsQR(new Uint8ClampedArray(png.data), png.width, png.height)?.data
}
