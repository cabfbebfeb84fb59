import { describe, expect, test } from 'vitest'
import { readDeepLink, stripDeepLink } from './deepLink.js'

const URI =
  'wc:8a5e5bdc-a0e4-4702-ba63-8f1a5655744f@1?bridge=http%3A%2F%2F127.0.0.1%3A3000&key=41791102999c339c844880b23950704cc43aa840f3739e365323cda4dfa89e7a'

describe('readDeepLink', () => {
  test('default', () => {
    expect(readDeepLink({ pathname: '/wallet/wc', search: `?uri=${encodeURIComponent(URI)}` })).toBe(URI)
  })

  test('args: unencoded URI', () => {
    expect(readDeepLink({ pathname: '/wallet/wc/', search: `?uri=${URI}` })).toBe(URI)
  })

  test('args: a v2 URI, encoded or not', () => {
    const v2 = `wc:${'7f'.repeat(32)}@2?expiryTimestamp=1700000300&relay-protocol=irn&symKey=${'ab'.repeat(32)}`
    expect(readDeepLink({ pathname: '/wallet/wc', search: `?uri=${encodeURIComponent(v2)}` })).toBe(v2)
    expect(readDeepLink({ pathname: '/wallet/wc', search: `?uri=${v2}` })).toBe(v2)
  })

  test('behavior: other paths and a missing uri are no deep link', () => {
    expect(readDeepLink({ pathname: '/wallet/', search: `?uri=${encodeURIComponent(URI)}` })).toBeUndefined()
    expect(readDeepLink({ pathname: '/wallet/wc', search: '' })).toBeUndefined()
  })

  test('behavior: the incomplete form is returned as is (the wallet decides)', () => {
    expect(readDeepLink({ pathname: '/wallet/wc', search: '?uri=wc%3Aabc%401' })).toBe('wc:abc@1')
  })
})

describe('stripDeepLink', () => {
  test('default', () => {
    expect(stripDeepLink('/wallet/wc')).toBe('/wallet/')
    expect(stripDeepLink('/wallet/')).toBe('/wallet/')
  })
})
