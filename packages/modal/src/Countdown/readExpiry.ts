/**
 * When a pairing URI expires, in milliseconds since the epoch: the `expiryTimestamp` (seconds) of a v2 URI
 * (`wc:{topic}@2?…&expiryTimestamp=…`), else `undefined` — v1 URIs (`@1?bridge=…&key=…`) carry none and a v2 URI may
 * leave it out. Read with `URLSearchParams` rather than `parsePairingUri`, which would also check the key and
 * throw for a URI already past its expiry, where the modal wants to say so instead.
 *
 * @example
 * readExpiry('wc:7f6e…@2?expiryTimestamp=1700000300&relay-protocol=irn&symKey=587d…') // 1700000300000
 */
export function readExpiry(uri: string): number | undefined {
  const question = uri.indexOf('?')
  if (question === -1 || uri.slice(0, question).split('@')[1] !== '2') return undefined
  const seconds = new URLSearchParams(uri.slice(question)).get('expiryTimestamp') ?? ''
  return /^\d{1,15}$/.test(seconds) ? Number(seconds) * 1000 : undefined
}
