import { ANVIL_ACCOUNT } from '@pairlink/test-kit/anvil'
import { describe, expect, test } from 'vitest'
import { SiweMessageError } from './errors.js'
import { parseSiweMessage } from './parseSiweMessage.js'

const ADDRESS = ANVIL_ACCOUNT.address
// Every field, in EIP-4361's order.
const FULL = [
  'example.com wants you to sign in with your Ethereum account:',
  ADDRESS,
  '',
  'I accept the ExampleOrg Terms of Service: https://example.com/tos',
  '',
  'URI: https://example.com/login',
  'Version: 1',
  'Chain ID: 1',
  'Nonce: 32891756',
  'Issued At: 2021-09-30T16:25:24Z',
  'Expiration Time: 2021-10-30T16:25:24Z',
  'Not Before: 2021-09-30T16:25:24Z',
  'Request ID: some-id',
  'Resources:',
  '- ipfs://bafybeiemxf5abjwjbikoz4mc3a3dla6ual3jsgpdr4cjr3oz3evfyavhwq/',
  '- https://example.com/my-web2-claim.json',
].join('\n')

const swap = (text: string, a: string, b: string) => {
  const lines = text.split('\n')
  const i = lines.findIndex((l) => l.startsWith(a))
  const j = lines.findIndex((l) => l.startsWith(b))
  ;[lines[i], lines[j]] = [lines[j]!, lines[i]!]
  return lines.join('\n')
}
const withLine = (text: string, label: string, value: string) =>
  text.replace(new RegExp(`^${label}: .*$`, 'm'), `${label}: ${value}`)
const dropLines = (text: string, ...labels: string[]) =>
  text
    .split('\n')
    .filter((l) => !labels.some((label) => l.startsWith(label)))
    .join('\n')
const firstLine = (text: string, origin: string) => text.replace(/^.* wants you/, `${origin} wants you`)
const wrongChecksum = ADDRESS.replace(/[a-f]/, (c) => c.toUpperCase())
const REQUIRED_ONLY = dropLines(
  FULL,
  'Expiration Time',
  'Not Before',
  'Request ID',
  'Resources',
  '- ',
  'I accept',
)

// [title, message, the ABNF rule it breaks or 'valid']
const cases: [string, string, string][] = [
  ['baseline: every field', FULL, 'valid'],
  ['only the required fields, no statement', REQUIRED_ONLY, 'valid'],
  ['an explicit scheme', firstLine(FULL, 'https://example.com'), 'valid'],
  ['an IPv6 host with a port', firstLine(FULL, '[::1]:8080'), 'valid'],
  ['an IPv4 host with a port', firstLine(FULL, '127.0.0.1:5173'), 'valid'],
  ['a URN as URI', withLine(FULL, 'URI', 'urn:isbn:0451450523'), 'valid'],
  ['a DID resource', `${FULL}\n- did:pkh:eip155:1:${ADDRESS}`, 'valid'],
  ['a 29 February in a leap year', withLine(FULL, 'Issued At', '2024-02-29T00:00:00Z'), 'valid'],
  ['an offset and a fraction', withLine(FULL, 'Issued At', '2021-09-30T21:55:24.5+05:30'), 'valid'],
  ['a lower-case t and z (RFC 3339 §5.6)', withLine(FULL, 'Issued At', '2021-09-30t16:25:24z'), 'valid'],
  ['"Resources:" with no resource', dropLines(FULL, '- '), 'valid'],
  ['an empty request ID', withLine(FULL, 'Request ID', ''), 'valid'],

  ['a statement with a line break', FULL.replace('I accept the', 'I accept\nthe'), 'statement'],
  ['a statement with a non-ASCII letter', FULL.replace('I accept', 'J’accepte'), 'statement'],
  ['a statement with a "%"', FULL.replace('I accept', '100% I accept'), 'statement'],
  ['URI and Version swapped', swap(FULL, 'URI', 'Version'), 'uri'],
  ['Expiration Time after Not Before', swap(FULL, 'Expiration Time', 'Not Before'), 'order'],
  ['Request ID after Resources', swap(FULL, 'Request ID', 'Resources'), 'resources'],
  ['a field twice', FULL.replace('Not Before', 'Expiration Time'), 'order'],
  ['an unknown field', FULL.replace('Request ID: ', 'Session ID: '), 'order'],
  ['no empty line after the address', FULL.replace(`${ADDRESS}\n\n`, `${ADDRESS}\n`), 'LF'],
  ['no empty line after the statement', FULL.replace('tos\n\nURI', 'tos\nURI'), 'statement'],
  ['CRLF line breaks', FULL.replaceAll('\n', '\r\n'), 'preamble'],
  ['a trailing line break', `${FULL}\n`, 'resources'],
  ['a trailing line break after Issued At', `${REQUIRED_ONLY}\n`, 'order'],
  ['a preamble in another case', FULL.replace('wants you', 'Wants you'), 'preamble'],
  ['a lower-case address', FULL.replace(ADDRESS, ADDRESS.toLowerCase()), 'address'],
  ['an address with a wrong checksum', FULL.replace(ADDRESS, wrongChecksum), 'address'],
  ['a 19-byte address', FULL.replace(ADDRESS, ADDRESS.slice(0, -2)), 'address'],
  ['a scheme that is not RFC 3986', firstLine(FULL, '1https://example.com'), 'scheme'],
  ['a domain with a space', firstLine(FULL, 'exa mple.com'), 'domain'],
  ['a domain with a path', firstLine(FULL, 'example.com/login'), 'domain'],
  ['an IPv6 host that is not one', firstLine(FULL, '[::g]:8080'), 'domain'],
  ['an IPv6 zone id', firstLine(FULL, '[fe80::1%eth0]:8080'), 'domain'],
  ['a port that is not a number', firstLine(FULL, 'example.com:http'), 'domain'],
  ['a URI with a space', withLine(FULL, 'URI', 'https://example.com/log in'), 'uri'],
  ['a URI without a scheme', withLine(FULL, 'URI', 'example.com/login'), 'uri'],
  ['a URI with a bad bracket', withLine(FULL, 'URI', 'https://exa[mple.com/'), 'uri'],
  ['a URI with a broken escape', withLine(FULL, 'URI', 'https://example.com/%zz'), 'uri'],
  [
    'a resource that is not a URI',
    FULL.replace('- https://example.com/my', '- https://exa mple.com/my'),
    'resources',
  ],
  [
    'a resource without "- "',
    FULL.replace('- https://example.com/my', 'https://example.com/my'),
    'resources',
  ],
  ['version 2', withLine(FULL, 'Version', '2'), 'version'],
  ['a hexadecimal chain ID', withLine(FULL, 'Chain ID', '0x1'), 'chain-id'],
  ['an empty chain ID', withLine(FULL, 'Chain ID', ''), 'chain-id'],
  ['a 7-character nonce', withLine(FULL, 'Nonce', '1234567'), 'nonce'],
  ['a nonce with a dash', withLine(FULL, 'Nonce', '1234-5678'), 'nonce'],
  ['31 February', withLine(FULL, 'Issued At', '2021-02-31T16:25:24Z'), 'issued-at'],
  ['29 February in a common year', withLine(FULL, 'Issued At', '2023-02-29T16:25:24Z'), 'issued-at'],
  ['hour 24', withLine(FULL, 'Issued At', '2021-09-30T24:00:00Z'), 'issued-at'],
  ['no time offset', withLine(FULL, 'Issued At', '2021-09-30T16:25:24'), 'issued-at'],
  ['a space for the T', withLine(FULL, 'Issued At', '2021-09-30 16:25:24Z'), 'issued-at'],
  ['a bare date', withLine(FULL, 'Issued At', '2021-09-30'), 'issued-at'],
  ['31 April as expiry', withLine(FULL, 'Expiration Time', '2021-04-31T00:00:00Z'), 'expiration-time'],
  ['month 13 as not-before', withLine(FULL, 'Not Before', '2021-13-01T00:00:00Z'), 'not-before'],
  ['a request ID with a space', withLine(FULL, 'Request ID', 'some id'), 'request-id'],
  ['no Issued At', dropLines(REQUIRED_ONLY, 'Issued At'), 'issued-at'],
]

describe('parseSiweMessage', () => {
  test.each(cases)('%s → %s', (_, message, rule) => {
    if (rule === 'valid') {
      expect(parseSiweMessage(message).address).toBe(ADDRESS)
      return
    }
    const error = (() => {
      try {
        parseSiweMessage(message)
      } catch (e) {
        return e
      }
    })()
    expect(error).toBeInstanceOf(SiweMessageError)
    expect(error).toMatchObject({ code: 'ERR_SIWE_MESSAGE_INVALID', field: rule })
    expect((error as Error).message).toMatch(/^Message is not an EIP-4361 sign-in message: /)
  })

  test('default: every field is read', () => {
    expect(parseSiweMessage(firstLine(FULL, 'https://example.com'))).toEqual({
      scheme: 'https',
      domain: 'example.com',
      address: ADDRESS,
      statement: 'I accept the ExampleOrg Terms of Service: https://example.com/tos',
      uri: 'https://example.com/login',
      version: '1',
      chainId: 1,
      nonce: '32891756',
      issuedAt: new Date('2021-09-30T16:25:24Z'),
      expirationTime: new Date('2021-10-30T16:25:24Z'),
      notBefore: new Date('2021-09-30T16:25:24Z'),
      requestId: 'some-id',
      resources: [
        'ipfs://bafybeiemxf5abjwjbikoz4mc3a3dla6ual3jsgpdr4cjr3oz3evfyavhwq/',
        'https://example.com/my-web2-claim.json',
      ],
    })
  })

  test('behavior: offsets, fractions and leap seconds are read as the instant they name', () => {
    const at = (value: string) => parseSiweMessage(withLine(REQUIRED_ONLY, 'Issued At', value)).issuedAt
    expect(at('2021-09-30T21:55:24.5+05:30')).toEqual(new Date('2021-09-30T16:25:24.500Z'))
    expect(at('2021-09-30T12:25:24-04:00')).toEqual(new Date('2021-09-30T16:25:24Z'))
    expect(at('2016-12-31T23:59:60Z')).toEqual(new Date('2017-01-01T00:00:00Z'))
    expect(at('0001-01-01T00:00:00Z').getUTCFullYear()).toBe(1)
  })

  test('behavior: an empty statement line is a statement, as the ABNF allows', () => {
    const text = REQUIRED_ONLY.replace(`${ADDRESS}\n\n\n`, `${ADDRESS}\n\n\n\n`)
    expect(parseSiweMessage(text).statement).toBe('')
    expect(parseSiweMessage(REQUIRED_ONLY).statement).toBeUndefined()
  })
})
