// Base64 through the platform's atob/btoa (every browser, Node ≥ 16): @scure/base's codecs cost the v2 bundle ~600
// bytes gzip for the same bytes. Strict: no whitespace, padding only where the encoding has it.

const BASE64_RE = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/
const BASE64URL_RE = /^[A-Za-z0-9_-]*$/

/** Bytes to base64 (`+/`, padded) or, with `url`, base64url (`-_`, unpadded, as JWTs and link mode write it). */
export function encodeBase64(bytes: Uint8Array, url = false): string {
  let binary = ''
  // Chunks keep String.fromCharCode's argument list short for large envelopes.
  for (let i = 0; i < bytes.length; i += 0x8000)
    binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000))
  const text = btoa(binary)
  return url ? text.replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '') : text
}

/** The bytes of base64 (padded) or, with `url`, unpadded base64url text; `undefined` for any other text. */
export function decodeBase64(text: string, url = false): Uint8Array | undefined {
  if (typeof text !== 'string') return undefined
  let standard = text
  if (url) {
    if (!BASE64URL_RE.test(text) || text.length % 4 === 1) return undefined
    standard = text
      .replace(/-/g, '+')
      .replace(/_/g, '/')
      .padEnd(Math.ceil(text.length / 4) * 4, '=')
  } else if (!BASE64_RE.test(text)) return undefined
  try {
    return Uint8Array.from(atob(standard), (c) => c.charCodeAt(0))
  } catch {
    return undefined
  }
}
