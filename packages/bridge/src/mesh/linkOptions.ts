import { isIP } from 'node:net'
import { InvalidBridgeOptionsError } from '../errors.js'
import type { NodeLinkOptions } from './nodeMesh.js'

// Shortest secret accepted from a flag or a variable. A link is plain TCP: whoever sees one handshake can test
// guesses of the secret offline against its HMAC, so a short one would soon be found. The default is 64 hex digits.
const MIN_LINK_SECRET_LENGTH = 16
// A DNS name or a container's service name (which may hold `_`).
const HOST_NAME = /^[a-z0-9_]([a-z0-9_.-]*[a-z0-9_])?$/i

/**
 * `host:port`, `[v6]:port` or a bare `v6:port` (split at the last `:`), the host an IP address or a name, the port
 * from `minPort` to 65535; undefined when `address` is none of these.
 */
export function parseLinkAddress(address: string, minPort = 1): { host: string; port: number } | undefined {
  const match = /^(.+):(\d{1,5})$/.exec(address)
  const text = match?.[1] ?? ''
  const bracketed = text.startsWith('[') && text.endsWith(']')
  const host = bracketed ? text.slice(1, -1) : text
  const port = Number(match?.[2])
  if (!(port >= minPort && port <= 65_535)) return undefined
  if (bracketed ? isIP(host) !== 6 : isIP(host) === 0 && !HOST_NAME.test(host)) return undefined
  return { host, port }
}

/** Parameters of {@link parseLinkOptions}: the settings as text, each unset when undefined. */
export type ParseLinkOptionsParameters = {
  /** `host:port` to listen on for links (port 0: a free one), or `off`. */
  listen?: string | undefined
  /** `host:port` the other nodes dial. */
  advertise?: string | undefined
  /** The secret every node proves when a link opens. */
  secret?: string | undefined
}

/** What the messages of {@link parseLinkOptions} call each setting. */
export type LinkSettingNames = { listen: string; advertise: string; secret: string }

/**
 * Reads a Redis node's link settings (`createRedisBackend({ links })`) from text, as `pairlink-bridge`'s
 * `--link-listen`, `--link-advertise` and `--link-secret` and the product server's `BRIDGE_LINK_*` variables give
 * them, so that both read them alike. `off` turns the links off; advertise and secret are then not read. Throws
 * `InvalidBridgeOptionsError` naming the first bad setting as `names` says; a secret never appears in a message.
 *
 * @param names What the messages call each setting. @default the variables: `BRIDGE_LINK_LISTEN`,
 * `BRIDGE_LINK_ADVERTISE`, `BRIDGE_LINK_SECRET`
 * @example
 * parseLinkOptions({ listen: '0.0.0.0:7100', advertise: '10.0.0.5:7100', secret: process.env.BRIDGE_LINK_SECRET })
 * // { host: '0.0.0.0', port: 7100, advertise: '10.0.0.5:7100', secret: '…' }
 */
export function parseLinkOptions(
  settings: ParseLinkOptionsParameters,
  names: LinkSettingNames = {
    listen: 'BRIDGE_LINK_LISTEN',
    advertise: 'BRIDGE_LINK_ADVERTISE',
    secret: 'BRIDGE_LINK_SECRET',
  },
): NodeLinkOptions | false {
  const { listen, advertise, secret } = settings
  if (listen === 'off') return false
  const links: NodeLinkOptions = {}
  if (listen !== undefined) {
    const address = parseLinkAddress(listen, 0)
    if (!address)
      throw new InvalidBridgeOptionsError(
        `${names.listen} must be host:port (port 0: a free one) or off, got ${listen}`,
      )
    links.host = address.host
    links.port = address.port
  }
  if (advertise !== undefined) {
    if (!parseLinkAddress(advertise))
      throw new InvalidBridgeOptionsError(
        `${names.advertise} must be host:port, the address the other nodes dial, got ${advertise}`,
      )
    links.advertise = advertise
  }
  if (secret !== undefined) {
    if (secret.length < MIN_LINK_SECRET_LENGTH)
      throw new InvalidBridgeOptionsError(
        `${names.secret} must be at least ${MIN_LINK_SECRET_LENGTH} characters (e.g. openssl rand -hex 32)`,
      )
    links.secret = secret
  }
  return links
}
