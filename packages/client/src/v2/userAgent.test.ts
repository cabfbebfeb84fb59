import { expect, test } from 'vitest'
import { VERSION } from '../version.js'
import { getRelayUserAgent } from './userAgent.js'

const sdk = `wc-2/js-pairlink-${VERSION}`
// The SDK's schema: {protocol}/{sdk}/{os}[/{id}], no part empty (walletconnect-network.md).
const SCHEMA = /^wc-2\/js-pairlink-\d+\.\d+\.\d+[^/]*\/[^/\s]+\/(node|browser:[^/\s]+)$/

test('default: in Node, platform and Node version, as the SDK sends them', () => {
  expect(getRelayUserAgent()).toBe(`${sdk}/${process.platform}-${process.versions.node}/node`)
  expect(getRelayUserAgent()).toMatch(SCHEMA)
})

test('args: a browser with userAgentData names its own brand, not Chromium or a GREASE one', () => {
  const brands = [
    { brand: 'Not)A;Brand', version: '8' },
    { brand: 'Chromium', version: '138' },
    { brand: 'Google Chrome', version: '138' },
  ]
  const ua = getRelayUserAgent({
    host: 'dapp.example:8443',
    navigator: { userAgent: 'ignored', userAgentData: { platform: 'macOS', brands } },
  })
  expect(ua).toBe(`${sdk}/macos-chrome-138/browser:dapp.example:8443`)
  expect(ua).toMatch(SCHEMA)
  const chromium = getRelayUserAgent({
    host: 'a-b.example',
    navigator: { userAgentData: { platform: 'Linux', brands: brands.slice(0, 2) } },
  })
  expect(chromium).toBe(`${sdk}/linux-chromium-138/browser:a-b.example`)
})

test('args: without userAgentData, the user agent string is read', () => {
  const cases: [string, string][] = [
    [
      'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1',
      'ios-safari-17.5',
    ],
    ['Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0', 'linux-firefox-128.0'],
    [
      'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36 Edg/126.0.2592.68',
      'windows-edge-126.0.2592.68',
    ],
    [
      'Mozilla/5.0 (Linux; Android 14) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.6478.122 Mobile Safari/537.36',
      'android-chrome-126.0.6478.122',
    ],
  ]
  for (const [userAgent, os] of cases)
    expect(getRelayUserAgent({ host: 'dapp.example', navigator: { userAgent } })).toBe(
      `${sdk}/${os}/browser:dapp.example`,
    )
})

test('behavior: nothing known still gives every part a value (the hosted relay refuses an empty one)', () => {
  expect(getRelayUserAgent({ host: '', navigator: {} })).toBe(
    `${sdk}/unknown-unknown-unknown/browser:unknown`,
  )
  expect(getRelayUserAgent({})).toBe(`${sdk}/unknown-unknown/node`)
  expect(getRelayUserAgent({ host: 'x', navigator: { userAgent: 'Mozilla/5.0 (Some OS) Odd/1' } })).toMatch(
    SCHEMA,
  )
})
