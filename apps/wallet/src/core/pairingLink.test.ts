import { describe, expect, test } from 'vitest'
import { ExpiredLinkError, findError, IncompleteUriError, UnsupportedUriError } from './errors.js'
import { assertPairable, checkPairingLink, getLinkVersion, type PairingLinkProblem } from './pairingLink.js'

const KEY = 'ab'.repeat(32)
const BRIDGE = encodeURIComponent('http://127.0.0.1:5001')
const TOPIC = '00000000-0000-4000-8000-000000000000'
const V2_TOPIC = '7f'.repeat(32)
const inFiveMinutes = () => Math.floor(Date.now() / 1000) + 300

describe('checkPairingLink', () => {
  test('default: a whole v1 link can pair', () => {
    expect(checkPairingLink(`wc:${TOPIC}@1?bridge=${BRIDGE}&key=${KEY}`)).toBeUndefined()
    expect(checkPairingLink(`  wc:${TOPIC}@1?bridge=${BRIDGE}&key=${KEY}\n`)).toBeUndefined()
  })

  test('default: a whole v2 link can pair, with or without its expiry', () => {
    expect(checkPairingLink(`wc:${V2_TOPIC}@2?relay-protocol=irn&symKey=${KEY}`)).toBeUndefined()
    const link = `wc:${V2_TOPIC}@2?expiryTimestamp=${inFiveMinutes()}&relay-protocol=irn&symKey=${KEY}`
    expect(checkPairingLink(link)).toBeUndefined()
  })

  test.each<[string, PairingLinkProblem]>([
    ['hello world', 'not_walletconnect'],
    ['https://dapp.example/?uri=wc:x', 'not_walletconnect'],
    ['wc', 'not_walletconnect'],
    [`WC:${TOPIC}@1?bridge=${BRIDGE}&key=${KEY}`, 'not_walletconnect'],
    [`wc:${V2_TOPIC}@2?expiryTimestamp=1&relay-protocol=irn&symKey=${KEY}`, 'v2_expired'],
    [`wc:${V2_TOPIC}@2?relay-protocol=irn`, 'v2_invalid'],
    [`wc:${V2_TOPIC}@2?relay-protocol=irn&symKey=${KEY.slice(2)}`, 'v2_invalid'],
    [`wc:abc@2?relay-protocol=irn&symKey=${KEY}`, 'v2_invalid'],
    [`wc:@1?bridge=${BRIDGE}&key=${KEY}`, 'missing_topic'],
    ['wc:hello', 'not_pairing'],
    ['wc:garbage!!@@', 'not_pairing'],
    [`wc:${TOPIC}@1`, 'nudge'],
    [`wc:${TOPIC}@1?key=${KEY}`, 'missing_bridge'],
    [`wc:${TOPIC}@1?bridge=ftp%3A%2F%2Fx&key=${KEY}`, 'bad_bridge'],
    [`wc:${TOPIC}@1?bridge=not%20a%20url&key=${KEY}`, 'bad_bridge'],
    [`wc:${TOPIC}@1?bridge=${BRIDGE}`, 'missing_key'],
    [`wc:${TOPIC}@1?bridge=${BRIDGE}&key=${KEY.slice(2)}`, 'bad_key'],
    [`wc:${TOPIC}@1?bridge=${BRIDGE}&key=${'zz'.repeat(32)}`, 'bad_key'],
  ])('error: %s → %s', (link, problem) => {
    expect(checkPairingLink(link)?.problem).toBe(problem)
  })

  test('behavior: each message says what is wrong and never repeats the link', () => {
    const expired = checkPairingLink(`wc:${V2_TOPIC}@2?expiryTimestamp=1&relay-protocol=irn&symKey=${KEY}`)
    expect(expired?.message).toBe(
      'This WalletConnect v2 link has expired: a link is valid for a few minutes and pairs once. Get a new link from the dapp and connect again',
    )
    expect(checkPairingLink(`wc:${V2_TOPIC}@2?relay-protocol=irn`)?.message).toBe(
      'This WalletConnect v2 link is incomplete or damaged: copy the whole link the dapp shows, or scan its QR code again',
    )
    expect(checkPairingLink('hello')?.message).toBe(
      'This is not a WalletConnect link: a pairing link looks like wc:…@2?relay-protocol=irn&symKey=… or wc:…@1?bridge=…&key=…',
    )
    expect(checkPairingLink(`wc:${TOPIC}@1?bridge=${BRIDGE}`)?.message).toBe(
      'This link has no key (key=…): copy the whole link the dapp shows, or scan its QR code again',
    )
    expect(checkPairingLink(`wc:${TOPIC}@1`)?.message).toBe(
      'This link only brings the wallet forward; it is not a pairing request',
    )
    const missingBridge = checkPairingLink(`wc:${TOPIC}@1?key=${KEY}`)?.message
    expect(missingBridge).toContain('no bridge')
    expect(missingBridge).not.toContain(KEY)
  })
})

describe('assertPairable', () => {
  test('default: a whole v1 link passes', () => {
    expect(() => assertPairable(`wc:${TOPIC}@1?bridge=${BRIDGE}&key=${KEY}`)).not.toThrow()
  })

  test('default: a whole v2 link passes', () => {
    expect(() => assertPairable(`wc:${V2_TOPIC}@2?relay-protocol=irn&symKey=${KEY}`)).not.toThrow()
  })

  test('error: the nudge throws IncompleteUriError, an expired v2 link ExpiredLinkError, damaged v2 and bridge-less texts UnsupportedUriError', () => {
    const code = (link: string) => {
      try {
        assertPairable(link)
      } catch (error) {
        return findError(error)?.code
      }
      return undefined
    }
    expect(code(`wc:${TOPIC}@1`)).toBe(IncompleteUriError.code)
    expect(code(`wc:${TOPIC}@2?relay-protocol=irn&symKey=${KEY}`)).toBe(UnsupportedUriError.code)
    expect(code(`wc:${V2_TOPIC}@2?expiryTimestamp=1&relay-protocol=irn&symKey=${KEY}`)).toBe(
      ExpiredLinkError.code,
    )
    expect(code('wc:hello')).toBe(UnsupportedUriError.code)
  })

  test('behavior: problems v1 names itself are left to its exact texts', () => {
    expect(() => assertPairable(`wc:${TOPIC}@1?bridge=${BRIDGE}`)).not.toThrow()
    expect(() => assertPairable('hello')).not.toThrow()
  })
})

describe('getLinkVersion', () => {
  test('default: v2 links are 2, everything else 1', () => {
    expect(getLinkVersion(`wc:${V2_TOPIC}@2?relay-protocol=irn&symKey=${KEY}`)).toBe(2)
    expect(getLinkVersion(` wc:${V2_TOPIC}@2?relay-protocol=irn&symKey=${KEY}\n`)).toBe(2)
    expect(getLinkVersion(`wc:${TOPIC}@1?bridge=${BRIDGE}&key=${KEY}`)).toBe(1)
    expect(getLinkVersion('hello')).toBe(1)
  })
})
