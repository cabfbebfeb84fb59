import { URI_PROTOCOL } from '../constants.js'
import { InvalidUriError } from '../errors.js'
import { splitUri } from '../uri.js'
import { ExpiredUriError } from './errors.js'

/** Protocol version carried in every v2 pairing URI. */
export const PROTOCOL_VERSION_V2 = 2

/** The relay protocol the SDK writes into every URI it makes (`relay-protocol=irn`). */
export const RELAY_PROTOCOL = 'irn'

/** Texts of the v2 URI checks, in the order {@link parsePairingUri} runs them. */
export const V2_URI_ERRORS = {
  // v1's text (V1_ERRORS.INVALID_URI), written out: naming V1_ERRORS would bundle every v1 text.
  INVALID_URI: 'URI format is invalid',
  UNSUPPORTED_VERSION: 'Unsupported pairing URI version',
  INVALID_TOPIC: 'Invalid or missing topic value',
  INVALID_RELAY_PROTOCOL: 'Invalid or missing relay-protocol parameter value',
  INVALID_SYM_KEY: 'Invalid or missing symKey parameter value',
  INVALID_EXPIRY: 'Invalid expiryTimestamp parameter value',
} as const

/** The parts of a v2 pairing URI (the SDK's `EngineTypes.UriParameters` without `protocol`). */
export type PairingUri = {
  /** The pairing topic: `sha256(symKey)`, 64 hex. */
  topic: string
  version: typeof PROTOCOL_VERSION_V2
  /** The pairing's symmetric key, 64 hex. */
  symKey: string
  /** The `relay-*` parameters: `protocol` (`irn`) and, when written, `data`. */
  relay: { protocol: string; data?: string | undefined }
  /** Seconds since the epoch after which the wallet must refuse the URI. */
  expiryTimestamp?: number | undefined
  /** JSON-RPC methods the pairing is for, when the dapp wrote them (`authenticate()` writes `wc_sessionAuthenticate`). */
  methods?: string[] | undefined
}

/** Parameters of {@link formatPairingUri}. */
export type FormatPairingUriParameters = {
  topic: string
  symKey: string
  /** Seconds since the epoch; the SDK writes pairing creation + 300. */
  expiryTimestamp?: number | undefined
  methods?: readonly string[] | undefined
  /** @default { protocol: 'irn' } */
  relay?: { protocol: string; data?: string | undefined } | undefined
}

/** Parameters of {@link parsePairingUri}. */
export type ParsePairingUriParameters = {
  /** Clock in milliseconds for the expiry check; `0` skips it. @default Date.now() */
  now?: number | undefined
}

const KEY_RE = /^[0-9a-f]{64}$/i

/**
 * Formats a pairing URI byte for byte as the v2 SDK's `formatUri`: `wc:{topic}@2?` then the parameters sorted by
 * name (`expiryTimestamp`, `methods`, `relay-data`, `relay-protocol`, `symKey`), form-encoded (`,` as `%2C`).
 *
 * @example
 * const { topic, symKey } = createPairingKey()
 * formatPairingUri({ topic, symKey, expiryTimestamp: Math.floor(Date.now() / 1000) + 300 })
 * // 'wc:7f6e…@2?expiryTimestamp=1700000300&relay-protocol=irn&symKey=587d…'
 */
export function formatPairingUri(parameters: FormatPairingUriParameters): string {
  const { topic, symKey, expiryTimestamp, methods, relay = { protocol: RELAY_PROTOCOL } } = parameters
  if (typeof topic !== 'string' || !KEY_RE.test(topic)) throw new InvalidUriError(V2_URI_ERRORS.INVALID_TOPIC)
  if (typeof symKey !== 'string' || !KEY_RE.test(symKey))
    throw new InvalidUriError(V2_URI_ERRORS.INVALID_SYM_KEY)
  if (!relay.protocol) throw new InvalidUriError(V2_URI_ERRORS.INVALID_RELAY_PROTOCOL)
  const query = new URLSearchParams()
  // The SDK leaves out falsy values (an expiry of 0, empty relay data) and an absent methods list.
  if (expiryTimestamp) query.append('expiryTimestamp', String(expiryTimestamp))
  if (methods) query.append('methods', methods.join(','))
  if (relay.data) query.append('relay-data', relay.data)
  query.append('relay-protocol', relay.protocol)
  query.append('symKey', symKey)
  return `${URI_PROTOCOL}:${topic}@${PROTOCOL_VERSION_V2}?${query}`
}

/**
 * Parses and checks a v2 pairing URI as the SDK's `pair()` accepts it (also `wc://…` and a base64-wrapped URI, as
 * mini-app start parameters carry it). Throws `InvalidUriError` with one of {@link V2_URI_ERRORS} for the first
 * failed check, or {@link ExpiredUriError}. The message never contains the URI.
 *
 * @example
 * const { topic, symKey, expiryTimestamp } = parsePairingUri(scanned)
 */
export function parsePairingUri(uri: string, parameters: ParsePairingUriParameters = {}): PairingUri {
  const text = typeof uri === 'string' ? unwrap(uri) : undefined
  if (text === undefined) throw new InvalidUriError(V2_URI_ERRORS.INVALID_URI)
  const question = text.indexOf('?')
  const path = text.slice(URI_PROTOCOL.length + 1, question === -1 ? undefined : question)
  const [rawTopic = '', version, ...extra] = path.split('@')
  if (version === undefined || extra.length > 0 || Number.parseInt(version, 10) !== PROTOCOL_VERSION_V2)
    throw new InvalidUriError(V2_URI_ERRORS.UNSUPPORTED_VERSION)
  // `wc://topic@2` (Android's form): the SDK strips the slashes.
  const topic = rawTopic.startsWith('//') ? rawTopic.slice(2) : rawTopic
  if (!KEY_RE.test(topic)) throw new InvalidUriError(V2_URI_ERRORS.INVALID_TOPIC)

  // As the SDK: URLSearchParams decoding (`+` is a space), and the last of repeated names wins.
  const query = Object.fromEntries(new URLSearchParams(question === -1 ? '' : text.slice(question)))
  const relay: PairingUri['relay'] = { protocol: query['relay-protocol'] ?? '' }
  if (!relay.protocol) throw new InvalidUriError(V2_URI_ERRORS.INVALID_RELAY_PROTOCOL)
  if (query['relay-data'] !== undefined) relay.data = query['relay-data']
  const symKey = query.symKey ?? ''
  if (!KEY_RE.test(symKey)) throw new InvalidUriError(V2_URI_ERRORS.INVALID_SYM_KEY)

  const result: PairingUri = {
    topic: topic.toLowerCase(),
    version: PROTOCOL_VERSION_V2,
    symKey: symKey.toLowerCase(),
    relay,
  }
  if (query.expiryTimestamp) {
    if (!/^\d{1,15}$/.test(query.expiryTimestamp)) throw new InvalidUriError(V2_URI_ERRORS.INVALID_EXPIRY)
    result.expiryTimestamp = Number(query.expiryTimestamp)
    const now = parameters.now ?? Date.now()
    if (now !== 0 && result.expiryTimestamp * 1000 < now) throw new ExpiredUriError()
  }
  if (query.methods !== undefined) result.methods = query.methods.split(',')
  return result
}

/**
 * The protocol version of a `wc:` link — `1` (bridge URL and key: `@pairlink/protocol`'s `parseUri`), `2` (relay
 * pairing: {@link parsePairingUri}) — or `null` when the text is not a `wc:` URI or names no version.
 *
 * @example
 * if (getUriVersion(scanned) === 2) pairV2(parsePairingUri(scanned))
 */
export function getUriVersion(uri: string): number | null {
  const text = typeof uri === 'string' ? unwrap(uri) : undefined
  return text === undefined ? null : splitUri(text).version
}

/** The URI as `wc:…`, unwrapping base64 when the text has no `wc:` of its own; `undefined` when it is no `wc:` URI. */
function unwrap(uri: string): string | undefined {
  let text = uri.trim()
  if (!text.startsWith(`${URI_PROTOCOL}:`)) {
    try {
      const binary = atob(text.padEnd(text.length + ((4 - (text.length % 4)) % 4), '='))
      text = new TextDecoder().decode(Uint8Array.from(binary, (c) => c.charCodeAt(0)))
    } catch {
      return undefined
    }
  }
  return text.startsWith(`${URI_PROTOCOL}:`) ? text : undefined
}
