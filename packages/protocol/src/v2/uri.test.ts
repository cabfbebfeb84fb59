import fc from 'fast-check'
import { describe, expect, test } from 'vitest'
import { InvalidUriError } from '../errors.js'
import { formatUri } from '../uri.js'
import { ExpiredUriError } from './errors.js'
import { createPairingKey } from './keys.js'
import { formatPairingUri, getUriVersion, parsePairingUri, V2_URI_ERRORS } from './uri.js'

const { topic, symKey } = createPairingKey()
const now = 1_795_338_265_000
const uri = formatPairingUri({ topic, symKey, expiryTimestamp: now / 1000 + 300 })

describe('parsePairingUri', () => {
  test('default', () => {
    expect(parsePairingUri(uri, { now })).toEqual({
      topic,
      version: 2,
      symKey,
      relay: { protocol: 'irn' },
      expiryTimestamp: now / 1000 + 300,
    })
  })

  test('behavior: round trip of any parameters formatPairingUri takes', () => {
    const hex = fc.uint8Array({ minLength: 32, maxLength: 32 }).map((b) => Buffer.from(b).toString('hex'))
    const method = fc.stringMatching(/^[a-zA-Z_]{1,20}$/)
    fc.assert(
      fc.property(
        hex,
        hex,
        fc.option(fc.integer({ min: 1, max: 2 ** 40 }), { nil: undefined }),
        fc.option(fc.array(method, { minLength: 1, maxLength: 4 }), { nil: undefined }),
        fc.option(fc.string({ minLength: 1 }), { nil: undefined }),
        (topic, symKey, expiryTimestamp, methods, data) => {
          const relay = data === undefined ? { protocol: 'irn' } : { protocol: 'irn', data }
          const parsed = parsePairingUri(
            formatPairingUri({ topic, symKey, expiryTimestamp, methods, relay }),
            {
              now: 0,
            },
          )
          expect(parsed).toEqual({
            topic,
            version: 2,
            symKey,
            relay,
            ...(expiryTimestamp === undefined ? {} : { expiryTimestamp }),
            ...(methods === undefined ? {} : { methods }),
          })
        },
      ),
    )
  })

  test('behavior: hex in upper case is read and given back in lower case', () => {
    const parsed = parsePairingUri(
      `wc:${topic.toUpperCase()}@2?relay-protocol=irn&symKey=${symKey.toUpperCase()}`,
    )
    expect(parsed).toMatchObject({ topic, symKey })
  })

  test('behavior: now 0 skips the expiry check', () => {
    expect(parsePairingUri(uri, { now: 0 }).topic).toBe(topic)
  })

  const rejected = (text: string, message: string) => {
    let error: unknown
    try {
      parsePairingUri(text, { now })
    } catch (e) {
      error = e
    }
    expect(error).toBeInstanceOf(InvalidUriError)
    expect((error as Error).message).toBe(message)
    // Never the key nor the URI in a message (the message is one of a fixed list).
    expect((error as Error).message).not.toContain(symKey)
  }

  test('error: not a wc: URI', () => {
    rejected('', V2_URI_ERRORS.INVALID_URI)
    rejected('https://example.com', V2_URI_ERRORS.INVALID_URI)
    rejected(uri.replace('wc:', 'WC:'), V2_URI_ERRORS.INVALID_URI)
    rejected(42 as unknown as string, V2_URI_ERRORS.INVALID_URI)
  })

  test('error: a v1 link, or no version', () => {
    rejected(
      formatUri({ topic: 'a-b-c', bridge: 'https://bridge.example', key: symKey }),
      V2_URI_ERRORS.UNSUPPORTED_VERSION,
    )
    rejected(`wc:${topic}?relay-protocol=irn&symKey=${symKey}`, V2_URI_ERRORS.UNSUPPORTED_VERSION)
    rejected(`wc:${topic}@2@2?relay-protocol=irn&symKey=${symKey}`, V2_URI_ERRORS.UNSUPPORTED_VERSION)
  })

  test('error: each missing or malformed part, in order', () => {
    rejected(`wc:${topic.slice(2)}@2?relay-protocol=irn&symKey=${symKey}`, V2_URI_ERRORS.INVALID_TOPIC)
    rejected(`wc:@2?symKey=${symKey}`, V2_URI_ERRORS.INVALID_TOPIC)
    rejected(`wc:${topic}@2?symKey=${symKey}`, V2_URI_ERRORS.INVALID_RELAY_PROTOCOL)
    rejected(`wc:${topic}@2?relay-protocol=irn`, V2_URI_ERRORS.INVALID_SYM_KEY)
    rejected(`wc:${topic}@2?relay-protocol=irn&symKey=${symKey}00`, V2_URI_ERRORS.INVALID_SYM_KEY)
    rejected(
      `wc:${topic}@2?relay-protocol=irn&symKey=${symKey}&expiryTimestamp=soon`,
      V2_URI_ERRORS.INVALID_EXPIRY,
    )
  })

  test('error: expired', () => {
    const expired = formatPairingUri({ topic, symKey, expiryTimestamp: now / 1000 - 1 })
    expect(() => parsePairingUri(expired, { now })).toThrow(ExpiredUriError)
    expect(() => parsePairingUri(expired, { now })).toThrow(InvalidUriError)
    expect(() => parsePairingUri(expired, { now })).toThrow(
      expect.objectContaining({ code: 'ERR_URI_EXPIRED', message: 'Pairing URI has expired' }),
    )
  })
})

describe('formatPairingUri', () => {
  test('default: parameters sorted by name, relay-protocol=irn', () => {
    expect(formatPairingUri({ topic, symKey, expiryTimestamp: 1_700_000_300 })).toBe(
      `wc:${topic}@2?expiryTimestamp=1700000300&relay-protocol=irn&symKey=${symKey}`,
    )
  })

  test('error: a topic or key that is not 32 bytes of hex', () => {
    expect(() => formatPairingUri({ topic: 'x', symKey })).toThrow(V2_URI_ERRORS.INVALID_TOPIC)
    expect(() => formatPairingUri({ topic, symKey: symKey.slice(1) })).toThrow(V2_URI_ERRORS.INVALID_SYM_KEY)
    expect(() => formatPairingUri({ topic, symKey, relay: { protocol: '' } })).toThrow(
      V2_URI_ERRORS.INVALID_RELAY_PROTOCOL,
    )
  })
})

describe('getUriVersion', () => {
  test('default: tells v1 links from v2 ones', () => {
    expect(getUriVersion(uri)).toBe(2)
    expect(getUriVersion(Buffer.from(uri).toString('base64'))).toBe(2)
    expect(getUriVersion(formatUri({ topic: 't', bridge: 'https://b.example', key: symKey }))).toBe(1)
  })

  test('behavior: null for anything else', () => {
    expect(getUriVersion(`wc:${topic}`)).toBeNull()
    expect(getUriVersion('https://example.com')).toBeNull()
    expect(getUriVersion('')).toBeNull()
  })
})

test("behavior: the not-a-URI text is v1's, byte for byte", async () => {
  const { V1_ERRORS } = await import('../errors.js')
  expect(V2_URI_ERRORS.INVALID_URI).toBe(V1_ERRORS.INVALID_URI)
})
