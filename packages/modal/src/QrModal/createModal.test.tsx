import { DEEPLINK_CHOICE_STORAGE_KEY, InvalidUriError, V1_ERRORS } from '@pairlink/protocol'
import { fireEvent } from '@testing-library/dom'
import { afterEach, beforeAll, beforeEach, describe, expect, test, vi } from 'vitest'
import { fakeFetch, flush, loadAllStrings, modal, registryUrl, uri } from '../../test/fixtures.js'
import { createModal } from './createModal.js'

beforeAll(loadAllStrings)

const names = () => modal().root.querySelectorAll('.wallet .name')
const walletNames = () =>
  [...modal().root.querySelectorAll('a.wallet')].map(
    (a) => a.getAttribute('aria-label') ?? a.querySelector('.name')?.textContent,
  )

beforeEach(() => localStorage.clear())
afterEach(() => {
  document.body.replaceChildren()
  vi.useRealTimers()
  vi.restoreAllMocks()
})

describe('createModal', () => {
  test('default', async () => {
    const { fetch, calls } = fakeFetch()
    createModal({ uri, platform: 'desktop', fetch, registryUrl: 'https://registry.test/wallets' })
    const m = modal()
    const dialog = m.getByRole('dialog')
    expect(dialog.getAttribute('aria-modal')).toBe('true')
    expect(m.root.getElementById(dialog.getAttribute('aria-labelledby') ?? '')?.textContent).toBe(
      'Connect a wallet',
    )
    expect(m.root.getElementById('walletconnect-qrcode-modal')).toBeTruthy()
    expect(m.root.getElementById('walletconnect-qrcode-close')).toBeTruthy()
    expect(m.root.getElementById('walletconnect-qrcode-text')?.textContent).toBe(
      'Scan QR code with a WalletConnect-compatible wallet',
    )
    expect(m.root.querySelector('svg.walletconnect-qrcode__image path')?.getAttribute('d')).toMatch(
      /^M4 4h7v1h-7z/,
    )
    expect(m.getByRole('button', { name: 'Copy to clipboard' })).toBeTruthy()
    expect(calls).toEqual(['https://registry.test/wallets'])
  })

  test('args: platform desktop — QR first, then a Desktop tab of desktop wallets', async () => {
    const { fetch } = fakeFetch()
    createModal({ uri, registryUrl, platform: 'desktop', fetch })
    const m = modal()
    expect(m.getAllByRole('tab').map((tab) => tab.textContent)).toEqual(['QR Code', 'Desktop'])
    expect(m.getByRole('tab', { name: 'QR Code' }).getAttribute('aria-selected')).toBe('true')
    fireEvent.click(m.getByRole('tab', { name: 'Desktop' }))
    await flush()
    expect(m.getByRole('tab', { name: 'Desktop' }).getAttribute('aria-selected')).toBe('true')
    expect(walletNames()).toEqual([
      'Crypto.com | DeFi Wallet',
      'Ledger Live',
      'SecuX',
      'Ambire Wallet',
      'Sequence Wallet',
      'Fireblocks',
    ])
    expect(m.root.querySelector('.pages')).toBeNull()
    expect(m.root.getElementById('walletconnect-qrcode-text')).toBeNull()
  })

  test('args: platform ios — wallet list first, Loading... then 5 pages of 12', async () => {
    const { fetch } = fakeFetch()
    createModal({ uri, registryUrl, platform: 'ios', fetch })
    const m = modal()
    expect(m.getAllByRole('tab').map((tab) => tab.textContent)).toEqual(['Mobile', 'QR Code'])
    expect(m.getByText('Loading...')).toBeTruthy()
    await flush()
    expect(m.getByText('Choose your preferred wallet')).toBeTruthy()
    expect(names()).toHaveLength(12)
    expect(m.getAllByRole('button', { name: /^\d$/ }).map((b) => b.textContent)).toEqual([
      '1',
      '2',
      '3',
      '4',
      '5',
    ])
    expect(m.getByRole('button', { name: '1' }).getAttribute('aria-current')).toBe('page')
    fireEvent.click(m.getByRole('button', { name: '3' }))
    expect(names()[0]?.textContent).toBe('Nash')
    expect(m.getByRole('button', { name: '3' }).getAttribute('aria-current')).toBe('page')
    fireEvent.click(m.getByRole('button', { name: '5' }))
    expect(names()).toHaveLength(9)
    fireEvent.click(m.getByRole('tab', { name: 'QR Code' }))
    expect(m.root.getElementById('walletconnect-qrcode-text')).toBeTruthy()
  })

  test('args: platform mobile — behaves as iOS', async () => {
    const { fetch } = fakeFetch()
    createModal({ uri, registryUrl, platform: 'mobile', fetch })
    await flush()
    expect(names()).toHaveLength(12)
  })

  test('args: platform android — one Connect button with the raw wc: link, no registry fetch', () => {
    const { fetch, calls } = fakeFetch()
    createModal({ uri, registryUrl, platform: 'android', fetch })
    const m = modal()
    expect(calls).toEqual([])
    expect(m.getByText('Connect to Mobile Wallet')).toBeTruthy()
    const button = m.root.getElementById('walletconnect-connect-button-Connect') as HTMLAnchorElement
    expect(button.textContent).toBe('Connect')
    expect(button.getAttribute('href')).toBe(uri)
    button.addEventListener('click', (event) => event.preventDefault())
    fireEvent.click(button)
    expect(JSON.parse(localStorage.getItem(DEEPLINK_CHOICE_STORAGE_KEY) ?? '')).toEqual({
      name: 'Unknown',
      href: 'wc:8a5e5bdc-a0e4-4702-ba63-8f1a5655744f@1',
    })
    fireEvent.click(m.getByRole('tab', { name: 'QR Code' }))
    expect(m.root.querySelector('svg')).toBeTruthy()
  })

  test('behavior: a wallet click stores WALLETCONNECT_DEEPLINK_CHOICE', async () => {
    const { fetch } = fakeFetch()
    createModal({ uri, registryUrl, platform: 'ios', fetch })
    await flush()
    const rainbow = modal().getByRole('link', { name: 'Rainbow' })
    expect(rainbow.getAttribute('href')).toBe(`https://rnbwapp.com/wc?uri=${encodeURIComponent(uri)}`)
    expect(rainbow.getAttribute('target')).toBe('_blank')
    expect(rainbow.getAttribute('rel')).toBe('noopener noreferrer')
    rainbow.addEventListener('click', (event) => event.preventDefault())
    fireEvent.click(rainbow)
    expect(JSON.parse(localStorage.getItem(DEEPLINK_CHOICE_STORAGE_KEY) ?? '')).toEqual({
      name: 'Rainbow',
      href: 'https://rnbwapp.com/wc',
    })
  })

  test('behavior: search filters by name after the debounce, back to page 1; clearing is immediate', async () => {
    const { fetch } = fakeFetch()
    createModal({ uri, registryUrl, platform: 'ios', fetch })
    await flush()
    const m = modal()
    fireEvent.click(m.getByRole('button', { name: '2' }))
    vi.useFakeTimers()
    const search = m.getByRole('searchbox', { name: 'Search' }) as HTMLInputElement
    fireEvent.input(search, { target: { value: 'WALLET' } })
    expect(names()).toHaveLength(12)
    vi.advanceTimersByTime(150)
    expect(
      [...names()].every((n) =>
        /wallet/i.test(n.closest('a')?.getAttribute('aria-label') ?? n.textContent ?? ''),
      ),
    ).toBe(true)
    expect(m.getByRole('button', { name: '1' }).getAttribute('aria-current')).toBe('page')
    fireEvent.input(search, { target: { value: 'rainb' } })
    vi.advanceTimersByTime(150)
    expect([...names()].map((n) => n.textContent)).toEqual(['Rainbow'])
    expect(m.root.querySelector('.pages')).toBeNull()
    fireEvent.input(search, { target: { value: 'zzzz' } })
    vi.advanceTimersByTime(150)
    expect(m.getByText('No wallets found')).toBeTruthy()
    fireEvent.input(search, { target: { value: '' } })
    expect(names()).toHaveLength(12)
    expect(m.getByRole('button', { name: '1' }).getAttribute('aria-current')).toBe('page')
  })

  test('error: a failing registry shows Something went wrong, the QR tab, and recovers on retry', async () => {
    const { fetch, calls } = fakeFetch(['fail', 'ok'])
    createModal({ uri, registryUrl, platform: 'ios', fetch })
    await flush()
    const m = modal()
    expect(m.getByRole('alert').textContent).toContain('Something went wrong')
    fireEvent.click(m.getByRole('tab', { name: 'QR Code' }))
    expect(m.root.getElementById('walletconnect-qrcode-text')).toBeTruthy()
    fireEvent.click(m.getByRole('tab', { name: 'Mobile' }))
    fireEvent.click(m.getByRole('button', { name: 'Try again' }))
    expect(m.getByText('Loading...')).toBeTruthy()
    await flush()
    expect(names()).toHaveLength(12)
    expect(calls).toHaveLength(2)
  })

  test('error: malformed registry data shows Something went wrong', async () => {
    const { fetch } = fakeFetch(['malformed'])
    createModal({ uri, registryUrl, platform: 'desktop', fetch })
    fireEvent.click(modal().getByRole('tab', { name: 'Desktop' }))
    await flush()
    expect(modal().getByText('Something went wrong')).toBeTruthy()
  })

  test('args: mobileLinks with one wallet — the Connect with shortcut above the QR code', async () => {
    const { fetch } = fakeFetch()
    createModal({ uri, registryUrl, platform: 'ios', fetch, mobileLinks: ['rainbow'] })
    await flush()
    const m = modal()
    const link = m.getByRole('link', { name: 'Connect with Rainbow ›' })
    expect(link.getAttribute('href')).toBe(`https://rnbwapp.com/wc?uri=${encodeURIComponent(uri)}`)
    expect(m.queryAllByRole('tab')).toEqual([])
    expect(m.root.querySelector('svg')).toBeTruthy()
  })

  test('args: mobileLinks keeps the allow-list order', async () => {
    const { fetch } = fakeFetch()
    createModal({
      uri,
      registryUrl,
      platform: 'ios',
      fetch,
      mobileLinks: ['metamask', 'trust', 'nothing-like-this'],
    })
    await flush()
    expect(walletNames()).toEqual(['MetaMask', 'Trust Wallet'])
  })

  test('args: desktopLinks [] — no fetch, QR code only', () => {
    const { fetch, calls } = fakeFetch()
    createModal({ uri, registryUrl, platform: 'desktop', fetch, desktopLinks: [] })
    expect(calls).toEqual([])
    expect(modal().queryAllByRole('tab')).toEqual([])
    expect(modal().root.querySelector('svg')).toBeTruthy()
  })

  test('args: theme', () => {
    const theme = () => modal().root.getElementById('walletconnect-qrcode-modal')?.dataset.theme
    createModal({ uri, platform: 'android', theme: 'dark' })
    expect(theme()).toBe('dark')
    createModal({ uri, platform: 'android', theme: 'system' })
    expect(theme()).toBe('system')
    createModal({ uri, platform: 'android' })
    expect(theme()).toBe('system')
  })

  test('behavior: theme auto takes the colour scheme the page declares', () => {
    const theme = () => modal().root.getElementById('walletconnect-qrcode-modal')?.dataset.theme
    const meta = document.createElement('meta')
    meta.name = 'color-scheme'
    document.head.append(meta)
    try {
      for (const [declared, expected] of [
        ['light', 'light'],
        ['only dark', 'dark'],
        ['light dark', 'system'],
      ]) {
        meta.content = declared as string
        createModal({ uri, platform: 'android' })
        expect(theme()).toBe(expected)
        createModal({ uri, platform: 'android', theme: 'dark' })
        expect(theme()).toBe('dark')
      }
    } finally {
      meta.remove()
    }
  })

  test('args: title — in the app words; the default says what the dialog does', () => {
    const title = () => modal().getByRole('dialog').getAttribute('aria-labelledby') ?? ''
    createModal({ uri, platform: 'android', title: 'Pay with your wallet' })
    expect(modal().root.getElementById(title())?.textContent).toBe('Pay with your wallet')
    expect(modal().getByRole('dialog', { name: 'Pay with your wallet' })).toBeTruthy()
    createModal({ uri, platform: 'android', language: 'de' })
    expect(modal().getByRole('dialog', { name: 'Wallet verbinden' })).toBeTruthy()
  })

  test('behavior: a new modal replaces the open one', () => {
    createModal({ uri, platform: 'android' })
    createModal({ uri, platform: 'android' })
    expect(document.querySelectorAll('#walletconnect-wrapper')).toHaveLength(1)
  })

  test('error: not a wc: URI', () => {
    expect(() => createModal({ uri: 'https://example.com' })).toThrowError(InvalidUriError)
    expect(() => createModal({ uri: 'https://example.com' })).toThrowError(V1_ERRORS.INVALID_URI)
  })
})

describe('createModal: bridge status', () => {
  const qr = () => modal().root.querySelector('svg.walletconnect-qrcode__image')
  const status = () => modal().root.getElementById('bridge-status')

  test('default: ready, no message and the QR code not busy', () => {
    createModal({ uri, platform: 'desktop', desktopLinks: [] })
    expect(status()?.textContent).toBe('')
    expect(qr()?.hasAttribute('aria-busy')).toBe(false)
  })

  test('behavior: unreachable says so, marks the QR code busy and described by the message; ready clears it', () => {
    const m = createModal({ uri, platform: 'desktop', desktopLinks: [] })
    m.setStatus('unreachable')
    expect(status()?.textContent).toBe("Can't reach the bridge — retrying…")
    expect(qr()?.getAttribute('aria-busy')).toBe('true')
    expect(modal().root.getElementById(qr()?.getAttribute('aria-describedby') ?? '')).toBe(status())
    m.setStatus('ready')
    expect(status()?.textContent).toBe('')
    expect(qr()?.hasAttribute('aria-busy')).toBe(false)
    expect(qr()?.hasAttribute('aria-describedby')).toBe(false)
  })

  test('behavior: a v2 code names the relay, not the bridge', () => {
    const v2 = `wc:${'7f'.repeat(32)}@2?expiryTimestamp=${Math.floor(Date.now() / 1000) + 300}&relay-protocol=irn&symKey=${'58'.repeat(32)}`
    const m = createModal({ uri: v2, platform: 'desktop', desktopLinks: [], language: 'de' })
    m.setStatus('unreachable')
    expect(status()?.textContent).toBe('Das Relay ist nicht erreichbar – neuer Versuch…')
  })

  test('behavior: the message shows on the links view too, in the modal language', () => {
    const { fetch } = fakeFetch()
    const m = createModal({ uri, registryUrl, platform: 'ios', fetch, language: 'de' })
    m.setStatus('unreachable')
    expect(modal().getByRole('tab', { selected: true }).textContent).toBe('Mobil')
    expect(status()?.textContent).toBe('Die Bridge ist nicht erreichbar – neuer Versuch…')
  })
})
