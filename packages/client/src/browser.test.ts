// @vitest-environment happy-dom
import { expect, test } from 'vitest'
import { getBrowserHost, getWindowMeta, isMobile, redirectToWallet } from './browser.js'

test('getWindowMeta: default', () => {
  document.head.innerHTML = `
    <meta property="og:site_name" content="Pairlink">
    <meta name="description" content="Connect a wallet">
    <link rel="icon" href="/favicon.ico">
    <link rel="apple-touch-icon" href="https://cdn.example/i.png">`
  expect(getWindowMeta()).toEqual({
    description: 'Connect a wallet',
    url: location.origin,
    icons: [new URL('/favicon.ico', location.href).href, 'https://cdn.example/i.png'],
    name: 'Pairlink',
  })
})

test('getWindowMeta: behavior: falls back to the title', () => {
  document.head.innerHTML = ''
  document.title = 'My dapp'
  expect(getWindowMeta()).toMatchObject({ name: 'My dapp', description: '', icons: [] })
})

test('isMobile', () => {
  expect(isMobile('Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X)')).toBe(true)
  expect(isMobile('Mozilla/5.0 (Linux; Android 14; Pixel 8)')).toBe(true)
  expect(isMobile('Mozilla/5.0 (X11; Linux x86_64) Chrome/120')).toBe(false)
})

test('redirectToWallet: behavior: only on mobile', () => {
  const before = location.href
  redirectToWallet('https://wallet.example/wc')
  // happy-dom's default user agent is a desktop one.
  expect(location.href).toBe(before)
})

test('redirectToWallet: behavior: on a phone, a web link never replaces the dapp tab; a native one is followed', () => {
  Object.defineProperty(navigator, 'userAgent', {
    configurable: true,
    value: 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X)',
  })
  try {
    expect(isMobile()).toBe(true)
    const before = location.href
    redirectToWallet(`${location.origin}/wallet/wc`)
    redirectToWallet('https://rnbwapp.com/wc')
    redirectToWallet('javascript:alert(1)')
    redirectToWallet('not a url')
    expect(location.href).toBe(before)
    // The same phone follows a native deep link, as v1 does: the check above could have seen a navigation.
    redirectToWallet('rainbow://wc')
    expect(location.href).toBe('rainbow://wc')
  } finally {
    // The own property shadowed happy-dom's desktop user agent; removing it restores that.
    delete (navigator as { userAgent?: string }).userAgent
  }
})

test('getBrowserHost', () => {
  expect(getBrowserHost()).toBe(location.host)
})
