import { getAddress } from 'viem'
import type { SiweMessage } from 'viem/siwe'
import { SiweMessageError } from './errors.js'
import { parseDateTime } from './rfc3339.js'
import { isAuthority, isRequestId, isScheme, isStatement, isUri } from './rfc3986.js'

/** The fields of a message {@link parseSiweMessage} accepted; `issuedAt` is required by EIP-4361. */
export type ParsedSiweMessage = SiweMessage & { issuedAt: Date }

const PREAMBLE = ' wants you to sign in with your Ethereum account:'
const OPTIONAL_FIELDS = ['Expiration Time', 'Not Before', 'Request ID', 'Resources'] as const

/**
 * Parses an EIP-4361 message exactly as the EIP's ABNF describes it, line for line, and throws a
 * {@link SiweMessageError} naming the first rule it breaks. Unlike viem's lenient `parseSiweMessage` (which searches
 * for fields anywhere), this refuses fields out of order, extra or missing line breaks, a statement with characters
 * outside RFC 3986's reserved/unreserved set, an address that is not EIP-55 checksummed (lower case included), a
 * URI or resource that is not an RFC 3986 URI, and RFC 3339 dates that do not exist (31 February). IPv6 hosts
 * (`[::1]:8080`) are accepted, as RFC 3986's authority allows.
 *
 * @example
 * const { domain, address, nonce } = parseSiweMessage(text)
 */
export function parseSiweMessage(text: string): ParsedSiweMessage {
  const lines = text.split('\n')
  let at = 0
  const line = (rule: string): string => {
    const value = lines[at++]
    if (value === undefined) throw new SiweMessageError(rule, `the message ends before ${rule}`)
    return value
  }
  const field = (label: string, rule: string): string => {
    const value = line(rule)
    if (!value.startsWith(`${label}: `)) {
      throw new SiweMessageError(
        rule,
        `line ${at} must be "${label}: …" (fields in EIP-4361's order, one per line)`,
      )
    }
    return value.slice(label.length + 2)
  }

  const first = line('domain')
  if (!first.endsWith(PREAMBLE))
    throw new SiweMessageError('preamble', `line 1 must end with "${PREAMBLE.trim()}"`)
  const origin = first.slice(0, -PREAMBLE.length)
  const separator = origin.indexOf('://')
  const scheme = separator === -1 ? undefined : origin.slice(0, separator)
  const domain = separator === -1 ? origin : origin.slice(separator + 3)
  if (scheme !== undefined && !isScheme(scheme))
    throw new SiweMessageError('scheme', 'the scheme is not an RFC 3986 scheme')
  if (!isAuthority(domain)) throw new SiweMessageError('domain', 'the domain is not an RFC 3986 authority')

  const address = line('address')
  if (!/^0x[0-9a-fA-F]{40}$/.test(address))
    throw new SiweMessageError('address', 'line 2 must be a 0x-prefixed 20-byte address')
  if (getAddress(address) !== address)
    throw new SiweMessageError('address', 'the address is not EIP-55 checksummed')
  if (line('LF') !== '') throw new SiweMessageError('LF', 'line 3 must be empty')

  // `[ statement LF ] LF`: no statement leaves one empty line before "URI: ", a statement is followed by one.
  let statement: string | undefined
  if (lines[at] === '' && lines[at + 1]?.startsWith('URI: ')) at++
  else {
    statement = line('statement')
    if (!isStatement(statement)) {
      throw new SiweMessageError(
        'statement',
        'the statement may hold only RFC 3986 reserved and unreserved characters and spaces, on one line',
      )
    }
    if (line('LF') !== '')
      throw new SiweMessageError('statement', `line ${at} must be empty: the statement is one line`)
  }

  const uri = field('URI', 'uri')
  if (!isUri(uri)) throw new SiweMessageError('uri', 'the URI is not an RFC 3986 URI')
  if (field('Version', 'version') !== '1') throw new SiweMessageError('version', 'the version must be 1')
  const chain = field('Chain ID', 'chain-id')
  const chainId = Number(chain)
  if (!/^\d+$/.test(chain) || !Number.isSafeInteger(chainId))
    throw new SiweMessageError('chain-id', 'the chain ID must be a decimal number')
  const nonce = field('Nonce', 'nonce')
  if (!/^[A-Za-z0-9]{8,}$/.test(nonce))
    throw new SiweMessageError('nonce', 'the nonce must be at least 8 letters or digits')
  const issuedAt = dateTime(field('Issued At', 'issued-at'), 'issued-at')

  const message: ParsedSiweMessage = { address, chainId, domain, issuedAt, nonce, uri, version: '1' }
  if (scheme !== undefined) message.scheme = scheme
  if (statement !== undefined) message.statement = statement
  // The optional fields may each appear once, in this order; anything else after "Issued At" is refused.
  let next = 0
  while (at < lines.length) {
    const current = lines[at]!
    const index = OPTIONAL_FIELDS.findIndex((label) =>
      label === 'Resources' ? current === 'Resources:' : current.startsWith(`${label}: `),
    )
    if (index < next) {
      throw new SiweMessageError(
        'order',
        index === -1
          ? `line ${at + 1} is not an EIP-4361 field`
          : `"${OPTIONAL_FIELDS[index]}" on line ${at + 1} is out of place: fields follow EIP-4361's order, each once`,
      )
    }
    next = index + 1
    if (index === 0)
      message.expirationTime = dateTime(field('Expiration Time', 'expiration-time'), 'expiration-time')
    else if (index === 1) message.notBefore = dateTime(field('Not Before', 'not-before'), 'not-before')
    else if (index === 2) {
      const requestId = field('Request ID', 'request-id')
      if (!isRequestId(requestId))
        throw new SiweMessageError('request-id', 'the request ID may hold only RFC 3986 pchar characters')
      message.requestId = requestId
    } else {
      at++
      message.resources = []
      while (at < lines.length) {
        const resource = line('resource')
        if (!resource.startsWith('- ') || !isUri(resource.slice(2))) {
          throw new SiweMessageError(
            'resources',
            `line ${at} must be "- " and an RFC 3986 URI: resources come last, one per line`,
          )
        }
        message.resources.push(resource.slice(2))
      }
    }
  }
  return message
}

function dateTime(value: string, rule: string): Date {
  const date = parseDateTime(value)
  if (!date) throw new SiweMessageError(rule, `${rule} is not an RFC 3339 date-time that exists`)
  return date
}
