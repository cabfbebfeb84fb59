import { describe, expect, test } from 'vitest'
import { detectPlatform } from './detectPlatform.js'

const UA = {
  chrome: 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0 Safari/537.36',
  iphone:
    'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1',
  ipad: 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Safari/605.1.15',
  pixel:
    'Mozilla/5.0 (Linux; Android 14; Pixel 7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0 Mobile Safari/537.36',
  kaios: 'Mozilla/5.0 (Mobile; rv:48.0) Gecko/48.0 Firefox/48.0 KAIOS/2.5',
}

describe('detectPlatform', () => {
  test('default', () => {
    expect(detectPlatform({ userAgent: UA.chrome, maxTouchPoints: 0 })).toBe('desktop')
  })

  test('behavior: iOS by name', () => {
    expect(detectPlatform({ userAgent: UA.iphone, maxTouchPoints: 5 })).toBe('ios')
  })

  test('behavior: iPadOS reports a Mac; touch points give it away', () => {
    expect(detectPlatform({ userAgent: UA.ipad, maxTouchPoints: 5 })).toBe('ios')
    expect(detectPlatform({ userAgent: UA.ipad, maxTouchPoints: 0 })).toBe('desktop')
  })

  test('behavior: Android', () => {
    expect(detectPlatform({ userAgent: UA.pixel, maxTouchPoints: 5 })).toBe('android')
  })

  test('behavior: other phones are mobile', () => {
    expect(detectPlatform({ userAgent: UA.kaios })).toBe('mobile')
  })

  test('args: no navigator', () => {
    expect(detectPlatform(undefined)).toBe('desktop')
  })
})
