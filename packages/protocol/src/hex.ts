const HEX_RE = /^[0-9a-fA-F]*$/

/** Whether a string is hex digits only (any case), after an optional `0x`/`0X` prefix. */
export function isHex(value: string): boolean {
  return HEX_RE.test(strip0x(value))
}

/** Drops a leading `0x`/`0X`. */
export function strip0x(value: string): string {
  return value.startsWith('0x') || value.startsWith('0X') ? value.slice(2) : value
}

const BYTE_HEX = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, '0'))

/** Bytes to lowercase hex without `0x`, as v1 writes every hex value. */
export function bytesToHex(bytes: Uint8Array): string {
  // A table lookup per byte: every envelope converts a kilobyte or more each way.
  let out = ''
  for (let i = 0; i < bytes.length; i++) out += BYTE_HEX[bytes[i] as number]
  return out
}

/**
 * Hex (any case, optional `0x`) to bytes, or `undefined` when the text is not whole bytes of hex.
 * Returns `undefined` rather than throwing so callers can fold every failure into one error.
 */
export function hexToBytes(value: string): Uint8Array<ArrayBuffer> | undefined {
  const hex = strip0x(value)
  if (hex.length % 2 !== 0) return undefined
  const out = new Uint8Array(hex.length / 2)
  for (let i = 0; i < out.length; i++) {
    const hi = nibble(hex.charCodeAt(i * 2))
    const lo = nibble(hex.charCodeAt(i * 2 + 1))
    if (hi < 0 || lo < 0) return undefined
    out[i] = (hi << 4) | lo
  }
  return out
}

/** The value of one hex digit's char code, or -1. */
function nibble(code: number): number {
  if (code >= 48 && code <= 57) return code - 48 // 0-9
  if (code >= 97 && code <= 102) return code - 87 // a-f
  if (code >= 65 && code <= 70) return code - 55 // A-F
  return -1
}

/** UTF-8 text to `0x`-prefixed lowercase hex. */
export function utf8ToHex(text: string): string {
  return `0x${bytesToHex(new TextEncoder().encode(text))}`
}
