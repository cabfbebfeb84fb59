import { encode } from 'uqr'
import { QrCodeError } from '../errors.js'

/** A QR symbol as one SVG path: dark modules in a `size`×`size` grid, quiet zone included. */
export type EncodedQr = { size: number; path: string; level: 'L' | 'M' }

/** Light modules around the symbol; 4 is the quiet zone ISO/IEC 18004 asks for. */
const QUIET_ZONE = 4

/**
 * Largest URI (in UTF-8 bytes) kept at error-correction level M: 213 bytes is the byte-mode capacity of a version 10
 * symbol (57×57 modules) at M. A v1 URI with the default bridge is 157 bytes (version 9 at M, as v1's `qrcode`
 * defaulted to), so typical URIs keep M's 15 % recovery against glare and screen moiré. Past that, level L keeps the
 * symbol a few versions smaller so each module stays large enough for a phone camera; a screen is never smudged,
 * so the lost recovery matters less than module size.
 */
export const QR_LEVEL_M_MAX_BYTES = 213

/**
 * Encodes a URI (UTF-8, byte mode) and returns it as a single SVG path of dark modules, merging horizontal runs
 * so the path stays short.
 *
 * @example
 * encodeQr('wc:8a5e…@1?bridge=…&key=…') // { size: 61, level: 'M', path: 'M4 4h7v1h-7z…' }
 */
export function encodeQr(uri: string): EncodedQr {
  const bytes = new TextEncoder().encode(uri)
  const level = bytes.length <= QR_LEVEL_M_MAX_BYTES ? 'M' : 'L'
  let modules: boolean[][]
  try {
    // UTF-8 bytes as a plain array (what uqr takes as raw data), so non-ASCII characters are encoded exactly.
    modules = encode(Array.from(bytes), { ecc: level, border: 0 }).data
  } catch (cause) {
    throw new QrCodeError('URI is too long for a QR code', { details: `${bytes.length} bytes`, cause })
  }
  const size = modules.length
  let path = ''
  for (let row = 0; row < size; row++) {
    for (let col = 0; col < size; ) {
      if (!modules[row]?.[col]) {
        col++
        continue
      }
      const start = col
      while (col < size && modules[row]?.[col]) col++
      path += `M${start + QUIET_ZONE} ${row + QUIET_ZONE}h${col - start}v1h-${col - start}z`
    }
  }
  return { size: size + QUIET_ZONE * 2, path, level }
}
