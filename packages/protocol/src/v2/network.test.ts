import { describe, expect, test } from 'vitest'
import { getRelayRefusalKind, isRelayRefusalCode } from './network.js'

describe('getRelayRefusalKind', () => {
  test('default: WalletConnect relay’s three reasons, case-insensitive', () => {
    expect(getRelayRefusalKind('Project ID is missing')).toBe('project-missing')
    expect(getRelayRefusalKind('project not found')).toBe('project-unknown')
    expect(getRelayRefusalKind('Unauthorized: origin not allowed')).toBe('origin')
  })

  test('behavior: other words, or none, are `other`', () => {
    expect(getRelayRefusalKind('Unauthorized: expired auth token')).toBe('other')
    expect(getRelayRefusalKind('')).toBe('other')
  })
})

describe('isRelayRefusalCode', () => {
  test('default: 3000 and 4000–4999 refuse; a normal close, a lost socket or a non-number do not', () => {
    expect([3000, 4000, 4008, 4999].map(isRelayRefusalCode)).toEqual([true, true, true, true])
    expect([1000, 1001, 1006, 3001, 3999, 5000, '3000', undefined].map(isRelayRefusalCode)).toEqual(
      Array(8).fill(false),
    )
  })
})
