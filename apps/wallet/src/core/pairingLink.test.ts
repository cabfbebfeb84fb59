import { describe, expect, test } from 'vitest'
import { findError, IncompleteUriError, UnsupportedUriError } from './errors.js'
import { assertPairable, checkPairingLink, type PairingLinkProblem } from './pairingLink.js'

const KEY = 'ab'.repeat(32)
const BRIDGE = encodeURIComponent('http://127.0.0.1:5001')
const TOPIC = '00000000-0000-4000-8000-000000000000'

describe('checkPairingLink', () => {
  test('default: a whole v1 link can pair', () => {
    expect(checkPairingLink(`wc:${TOPIC}@1?bridge=${BRIDGE}&key=${KEY}`)).toBeUndefined()
    expect(checkPairingLink(`  wc:${TOPIC}@1?bridge=${BRIDGE}&key=${KEY}\n`)).toBeUndefined()
  })

  test.each<[string, PairingLinkProblem]>([
    ['hello world', 'not_walletconnect'],
    ['https://dapp.example/?uri=wc:x', 'not_walletconnect'],
    ['wc', 'not_walletconnect'],
    [`WC:${TOPIC}@1?bridge=${BRIDGE}&key=${KEY}`, 'not_walletconnect'],
    [`wc:${'7f'.repeat(32)}@2?relay-protocol=irn&symKey=${KEY}`, 'v2'],
    [`wc:${'7f'.repeat(32)}@2?expiryTimestamp=1&relay-protocol=irn&symKey=${KEY}`, 'v2'],
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
    const v2 = checkPairingLink(`wc:${'7f'.repeat(32)}@2?relay-protocol=irn&symKey=${KEY}`)
    expect(v2?.message).toBe(
      'This is a WalletConnect v2 link (wc:…@2), which Pairlink Wallet does not support yet: it pairs with v1 links (wc:…@1?bridge=…&key=…)',
    )
    expect(checkPairingLink('hello')?.message).toBe(
      'This is not a WalletConnect link: a pairing link looks like wc:…@1?bridge=…&key=…',
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

  test('error: the nudge throws IncompleteUriError, v2 and bridge-less texts UnsupportedUriError', () => {
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
    expect(code('wc:hello')).toBe(UnsupportedUriError.code)
  })

  test('behavior: problems v1 names itself are left to its exact texts', () => {
    expect(() => assertPairable(`wc:${TOPIC}@1?bridge=${BRIDGE}`)).not.toThrow()
    expect(() => assertPairable('hello')).not.toThrow()
  })
})
