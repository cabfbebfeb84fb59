import { PROTOCOL_VERSION, URI_PROTOCOL } from './constants.js'
import { InvalidUriError, V1_ERRORS } from './errors.js'

/** The parts of a `wc:` pairing URI. */
export type Uri = {
  /** The one-time handshake topic the session request is published on. */
  topic: string
  /** Protocol version; `null` when the URI has none or it is not a number (v1 never checks it). */
  version: number | null
  /** Bridge base URL, decoded. */
  bridge: string
  /** Symmetric key, hex as written in the URI. */
  key: string
}

/** Parameters of {@link formatUri}. */
export type FormatUriParameters = {
  topic: string
  /** @default 1 */
  version?: number | undefined
  bridge: string
  key: string
}

/**
 * Parses a `wc:` URI as the v1 wallet does (reference §1.2) and checks it in v1's order (§1.3), throwing
 * {@link InvalidUriError} with the exact v1 text of the first failed check. The message never contains the URI.
 *
 * @example
 * const { topic, bridge, key } = parseUri('wc:8a5e…@1?bridge=https%3A%2F%2Fbridge.example&key=4179…')
 */
export function parseUri(uri: string): Uri {
  if (typeof uri !== 'string') throw new InvalidUriError(V1_ERRORS.INVALID_URI)
  const parts = splitUri(uri)
  if (parts.protocol !== URI_PROTOCOL) throw new InvalidUriError(V1_ERRORS.INVALID_URI)
  if (!parts.topic) throw new InvalidUriError(V1_ERRORS.INVALID_HANDSHAKE_TOPIC)
  if (!parts.bridge) throw new InvalidUriError(V1_ERRORS.INVALID_BRIDGE)
  if (!parts.key) throw new InvalidUriError(V1_ERRORS.INVALID_KEY)
  return { topic: parts.topic, version: parts.version, bridge: parts.bridge, key: parts.key }
}

/**
 * Splits a URI into its parts without judging them: the lenient parse v1 wallets run first. A wallet uses it to
 * tell an "incomplete" URI (`wc:{topic}@1`, no key: only brings the wallet to the foreground) from a pairing one.
 */
export function splitUri(uri: string): Uri & { protocol: string } {
  const colon = uri.indexOf(':')
  const protocol = colon === -1 ? uri : uri.slice(0, colon)
  const rest = colon === -1 ? '' : uri.slice(colon + 1)
  const question = rest.indexOf('?')
  const path = question === -1 ? rest : rest.slice(0, question)
  const query = question === -1 ? '' : rest.slice(question + 1)

  const [topic = '', versionText, ...extra] = path.split('@')
  const version =
    versionText === undefined || extra.length > 0 ? Number.NaN : Number.parseInt(versionText, 10)
  const params = parseQuery(query)
  // v1's connector decodes the bridge a second time after the query-string parser did (reference §1.2 step 4).
  const bridge = safeDecode(params.get('bridge') ?? '')
  return {
    protocol,
    topic,
    version: Number.isNaN(version) ? null : version,
    bridge,
    key: params.get('key') ?? '',
  }
}

/**
 * Formats a `wc:` URI exactly as the v1 dapp does: `wc:{topic}@1?bridge={encodeURIComponent(bridge)}&key={key}`,
 * `bridge` first, no other parameters.
 */
export function formatUri(parameters: FormatUriParameters): string {
  const { topic, version = PROTOCOL_VERSION, bridge, key } = parameters
  return `${URI_PROTOCOL}:${topic}@${version}?bridge=${encodeURIComponent(bridge)}&key=${key}`
}

/** query-string v6 semantics: `+` is a space, values percent-decoded, first occurrence wins, order irrelevant. */
function parseQuery(query: string): Map<string, string> {
  const params = new Map<string, string>()
  if (!query) return params
  for (const pair of query.split('&')) {
    if (!pair) continue
    const eq = pair.indexOf('=')
    const name = safeDecode((eq === -1 ? pair : pair.slice(0, eq)).replace(/\+/g, ' '))
    const value = eq === -1 ? '' : safeDecode(pair.slice(eq + 1).replace(/\+/g, ' '))
    if (!params.has(name)) params.set(name, value)
  }
  return params
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text)
  } catch {
    return text
  }
}
