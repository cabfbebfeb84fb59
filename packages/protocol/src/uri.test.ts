import fc from 'fast-check'
import { describe, expect, test } from 'vitest'
import { vectors } from '../test/vectors.js'
import { InvalidUriError } from './errors.js'
import { formatUri, parseUri, splitUri } from './uri.js'

describe('splitUri', () => {
  test.each(vectors.uri.parse_examples)('vector: $input', ({ input, parseWalletConnectUri: want }) => {
    const got = splitUri(input)
    expect(got).toEqual({
      protocol: want.protocol,
      topic: want.handshakeTopic,
      version: want.version,
      bridge: want.bridge,
      key: want.key,
    })
  })

  test('behavior: a raw bridge keeps `?` and `=` but is cut at the next raw `&`', () => {
    expect(splitUri('wc:t@1?bridge=https://b.org/x?y=1&key=00').bridge).toBe('https://b.org/x?y=1')
  })

  test('behavior: `+` decodes to a space, unknown params are ignored, order is irrelevant', () => {
    expect(splitUri('wc:t@1?zzz=1&key=a+b&bridge=x')).toMatchObject({ key: 'a b', bridge: 'x' })
  })

  test('behavior: a second `@` makes the version unknown', () => {
    expect(splitUri('wc:t@1@2?bridge=x&key=1').version).toBeNull()
  })

  test('behavior: malformed percent escapes are kept as written rather than thrown', () => {
    expect(splitUri('wc:t@1?bridge=%E0%A4%A&key=1').bridge).toBe('%E0%A4%A')
  })
})

describe('parseUri', () => {
  test('default', () => {
    expect(parseUri(vectors.uri.example)).toEqual({
      topic: '8a5e5bdc-a0e4-4702-ba63-8f1a5655744f',
      version: 1,
      bridge: 'https://bridge.walletconnect.org',
      key: '41791102999c339c844880b23950704cc43aa840f3739e365323cda4dfa89e7a',
    })
  })

  const uriErrors = vectors.uri.connector_validation_errors.filter((v) => v.input.includes(':'))
  test.each(uriErrors)('error: vector $input', ({ input, error }) => {
    expect(() => parseUri(input)).toThrowError(new InvalidUriError(error))
  })

  test.each([
    ['xx:@1', 'URI format is invalid'],
    ['WC:abc@1?bridge=x&key=1', 'URI format is invalid'],
    ['', 'URI format is invalid'],
    ['wc:', 'Invalid or missing handshakeTopic parameter value'],
    ['wc:@1', 'Invalid or missing handshakeTopic parameter value'],
    ['wc:abc@1', 'Invalid or missing bridge url parameter value'],
    ['wc:abc@1?key=&bridge=', 'Invalid or missing bridge url parameter value'],
    ['wc:abc@1?bridge=x&key=', 'Invalid or missing key parameter value'],
  ])('error: checks in v1 order: %j', (input, message) => {
    expect(() => parseUri(input)).toThrowError(message)
  })

  test('error: carries ERR_URI_INVALID and never echoes the URI', () => {
    const secret = 'wc:abc@1?bridge=https%3A%2F%2Fb.example&key='
    try {
      parseUri(secret)
      expect.unreachable()
    } catch (error) {
      expect(error).toBeInstanceOf(InvalidUriError)
      expect((error as InvalidUriError).code).toBe('ERR_URI_INVALID')
      expect(String(error)).not.toContain('b.example')
    }
  })

  test('error: a non-string input', () => {
    expect(() => parseUri(42 as unknown as string)).toThrowError('URI format is invalid')
  })
})

describe('formatUri', () => {
  test('default: byte-exact with the v1 dapp', () => {
    const { handshakeTopic, bridge, key } = vectors.uri.parse_examples[0]!.parseWalletConnectUri
    expect(formatUri({ topic: handshakeTopic, bridge, key })).toBe(vectors.uri.example)
  })

  test('behavior: round-trips random topics, keys and bridges with query strings of their own', () => {
    const topic = fc.stringMatching(/^[0-9a-zA-Z-]{1,40}$/)
    const key = fc.uint8Array({ minLength: 32, maxLength: 32 }).map((b) => Buffer.from(b).toString('hex'))
    const query = fc.dictionary(fc.stringMatching(/^[a-z]{1,6}$/), fc.stringMatching(/^[\w.~-]{0,8}$/), {
      maxKeys: 3,
    })
    const bridge = fc
      .tuple(fc.webUrl({ withQueryParameters: false, withFragments: false }), query)
      .map(([url, q]) => (Object.keys(q).length ? `${url}?${new URLSearchParams(q)}` : url))
      .filter((url) => !url.includes('%'))
    fc.assert(
      fc.property(topic, key, bridge, (topic, key, bridge) => {
        expect(parseUri(formatUri({ topic, bridge, key }))).toEqual({ topic, version: 1, bridge, key })
      }),
      { numRuns: 300 },
    )
  })
})
