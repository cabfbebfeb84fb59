import { DEEPLINK_CHOICE_STORAGE_KEY } from '@pairlink/protocol'
import { describe, expect, test } from 'vitest'
import { focusWallet, readDeepLinkChoice } from './focusWallet.js'
import { saveDeepLinkChoice } from './saveDeepLinkChoice.js'

const store = (value: unknown) => {
  const text = typeof value === 'string' ? value : JSON.stringify(value)
  return { getItem: (key: string) => (key === DEEPLINK_CHOICE_STORAGE_KEY ? text : null) }
}
const recorder = () => {
  const opened: [string, string][] = []
  return { opened, open: (href: string, target: string) => void opened.push([href, target]) }
}
const uri = `wc:${'7f'.repeat(32)}@2?expiryTimestamp=1700000300&relay-protocol=irn&symKey=${'58'.repeat(32)}`

describe('focusWallet', () => {
  test('default: on a phone, the tapped wallet’s universal link without the URI, in a new tab', () => {
    const saved = saveDeepLinkChoice(
      'MetaMask',
      `https://metamask.app.link/wc?uri=${encodeURIComponent(uri)}`,
    )
    const { opened, open } = recorder()
    expect(focusWallet({ platform: 'ios', open, storage: store(saved) })).toEqual({
      name: 'MetaMask',
      href: 'https://metamask.app.link/wc',
    })
    expect(opened).toEqual([['https://metamask.app.link/wc', '_blank']])
    expect(opened[0]?.[0]).not.toContain('symKey')
  })

  test('args: a native scheme opens in place', () => {
    const { opened, open } = recorder()
    focusWallet({ platform: 'mobile', open, storage: store({ name: 'Rainbow', href: 'rainbow://wc' }) })
    expect(opened).toEqual([['rainbow://wc', '_self']])
  })

  test('behavior: a wallet page of the dapp’s own site is not opened again (it is a tab of this browser)', () => {
    const { opened, open } = recorder()
    const choice = store({ name: 'Pairlink Wallet', href: 'https://pairlink.example/wallet/wc' })
    expect(
      focusWallet({ platform: 'ios', open, storage: choice, origin: 'https://pairlink.example' }),
    ).toBeUndefined()
    expect(focusWallet({ platform: 'ios', open, storage: choice, origin: 'https://dapp.example' })).toEqual({
      name: 'Pairlink Wallet',
      href: 'https://pairlink.example/wallet/wc',
    })
    expect(opened).toEqual([['https://pairlink.example/wallet/wc', '_blank']])
  })

  test('behavior: nothing on a desktop, without a choice, or for Android’s raw wc: link', () => {
    const { opened, open } = recorder()
    const choice = store({ name: 'Rainbow', href: 'rainbow://wc' })
    expect(focusWallet({ platform: 'desktop', open, storage: choice })).toBeUndefined()
    expect(focusWallet({ platform: 'ios', open, storage: store(null) })).toBeUndefined()
    const android = store({ name: 'Unknown', href: `wc:${'7f'.repeat(32)}@2` })
    expect(focusWallet({ platform: 'android', open, storage: android })).toBeUndefined()
    expect(opened).toEqual([])
  })
})

describe('readDeepLinkChoice', () => {
  test('error: a stored value that is not a safe choice is ignored', () => {
    for (const value of [
      '{',
      '"text"',
      { name: 'X' },
      { name: 'X', href: 'javascript:alert(1)' },
      { name: 1, href: 'x://' },
    ])
      expect(readDeepLinkChoice(store(value))).toBeUndefined()
  })
})
