import { isIPv6 } from 'node:net'

// Character classes of RFC 3986 §2 and §3, as regular-expression fragments.
const UNRESERVED = 'A-Za-z0-9\\-._~'
const SUB_DELIMS = "!$&'()*+,;="
const PCT_ENCODED = '%[0-9A-Fa-f]{2}'
const PCHAR = `(?:[${UNRESERVED}${SUB_DELIMS}:@]|${PCT_ENCODED})`

const SCHEME = /^[A-Za-z][A-Za-z0-9+\-.]*$/
const USERINFO = new RegExp(`^(?:[${UNRESERVED}${SUB_DELIMS}:]|${PCT_ENCODED})*$`)
const REG_NAME = new RegExp(`^(?:[${UNRESERVED}${SUB_DELIMS}]|${PCT_ENCODED})*$`)
const IPV_FUTURE = new RegExp(`^v[0-9A-Fa-f]+\\.[${UNRESERVED}${SUB_DELIMS}:]+$`, 'i')
const PORT = /^[0-9]*$/
const PATH_ABEMPTY = new RegExp(`^(?:/${PCHAR}*)*$`)
// path-absolute / path-rootless / path-empty: pchars and slashes, never starting with "//" (§3.3).
const PATH_NO_AUTHORITY = new RegExp(`^(?!//)(?:${PCHAR}|/)*$`)
const QUERY_OR_FRAGMENT = new RegExp(`^(?:${PCHAR}|[/?])*$`)
const REQUEST_ID = new RegExp(`^${PCHAR}*$`)
// EIP-4361 `statement = *( reserved / unreserved / " " )`: reserved is gen-delims and sub-delims.
const STATEMENT = new RegExp(`^[${UNRESERVED}${SUB_DELIMS}:/?#\\[\\]@ ]*$`)

/** Whether `value` is an RFC 3986 `scheme` (§3.1). */
export function isScheme(value: string): boolean {
  return SCHEME.test(value)
}

/**
 * Whether `value` is an RFC 3986 `authority` (§3.2): `[ userinfo "@" ] host [ ":" port ]`, where the host is a
 * registered name, an IPv4 address or a bracketed IPv6 address / IPvFuture literal.
 */
export function isAuthority(value: string): boolean {
  const at = value.indexOf('@')
  if (at !== -1 && !USERINFO.test(value.slice(0, at))) return false
  const hostPort = at === -1 ? value : value.slice(at + 1)
  let host: string
  let port = ''
  if (hostPort.startsWith('[')) {
    const close = hostPort.indexOf(']')
    if (close === -1) return false
    host = hostPort.slice(0, close + 1)
    const rest = hostPort.slice(close + 1)
    if (rest !== '') {
      if (!rest.startsWith(':')) return false
      port = rest.slice(1)
    }
  } else {
    const colon = hostPort.indexOf(':')
    host = colon === -1 ? hostPort : hostPort.slice(0, colon)
    port = colon === -1 ? '' : hostPort.slice(colon + 1)
  }
  return isHost(host) && PORT.test(port)
}

function isHost(host: string): boolean {
  if (!host.startsWith('[')) return REG_NAME.test(host) // IPv4address is a subset of reg-name.
  if (!host.endsWith(']')) return false
  const literal = host.slice(1, -1)
  // node's check takes zone ids (`fe80::1%eth0`), which RFC 3986's IPv6address does not.
  return (isIPv6(literal) && !literal.includes('%')) || IPV_FUTURE.test(literal)
}

/** Whether `value` is an RFC 3986 `URI` (§3): `scheme ":" hier-part [ "?" query ] [ "#" fragment ]`. */
export function isUri(value: string): boolean {
  const colon = value.indexOf(':')
  if (colon === -1 || !isScheme(value.slice(0, colon))) return false
  let rest = value.slice(colon + 1)
  const hash = rest.indexOf('#')
  if (hash !== -1) {
    if (!QUERY_OR_FRAGMENT.test(rest.slice(hash + 1))) return false
    rest = rest.slice(0, hash)
  }
  const question = rest.indexOf('?')
  if (question !== -1) {
    if (!QUERY_OR_FRAGMENT.test(rest.slice(question + 1))) return false
    rest = rest.slice(0, question)
  }
  if (!rest.startsWith('//')) return PATH_NO_AUTHORITY.test(rest)
  const slash = rest.indexOf('/', 2)
  const authority = slash === -1 ? rest.slice(2) : rest.slice(2, slash)
  const path = slash === -1 ? '' : rest.slice(slash)
  return isAuthority(authority) && PATH_ABEMPTY.test(path)
}

/** Whether `value` is an EIP-4361 `request-id`: `*pchar`. */
export function isRequestId(value: string): boolean {
  return REQUEST_ID.test(value)
}

/** Whether `value` is an EIP-4361 `statement`: RFC 3986 reserved and unreserved characters and spaces, no line break. */
export function isStatement(value: string): boolean {
  return STATEMENT.test(value)
}
