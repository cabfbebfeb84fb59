import { DEEPLINK_CHOICE_STORAGE_KEY } from '@pairlink/protocol'
import { createPairingKey, formatPairingUri } from '@pairlink/protocol/v2'
import { fireEvent } from '@testing-library/dom'
import { afterEach, beforeAll, beforeEach, describe, expect, test, vi } from 'vitest'
import { fakeFetch, loadAllStrings, modal, registryUrl, uri as v1Uri } from '../../test/fixtures.js'
import { EXPIRY_MARGIN_MS } from '../constants.js'
import { close, open } from '../open.js'
import { encodeQr } from '../QrCode/encodeQr.js'
import { createModal } from './createModal.js'

beforeAll(loadAllStrings)

const T0 = 1_700_000_000_000

/** A fresh v2 pairing URI expiring `seconds` from now, as the SDK writes it (300 s). */
function v2Uri(seconds = 300): string {
  const { topic, symKey } = createPairingKey()
  return formatPairingUri({ topic, symKey, expiryTimestamp: Math.floor(Date.now() / 1000) + seconds })
}

const expiry = () => modal().root.getElementById('expiry') as HTMLElement
const timer = () => modal().getByRole('timer').textContent
const qr = () => modal().root.querySelector('svg.walletconnect-qrcode__image') as SVGSVGElement
const copyButton = () => modal().getByRole('button', { name: 'Copy to clipboard' }) as HTMLButtonElement
const wallet = (name: string) => modal().getByText(name).closest('a') as HTMLAnchorElement

/** Lets the registry answer (its fake answers in microtasks; no timer moves). */
async function settle() {
  for (let i = 0; i < 10 && modal().root.textContent?.includes('Loading...'); i++)
    await vi.advanceTimersByTimeAsync(0)
}

beforeEach(() => {
  localStorage.clear()
  vi.useFakeTimers()
  vi.setSystemTime(T0)
})
afterEach(() => {
  close()
  document.body.replaceChildren()
  vi.useRealTimers()
  vi.restoreAllMocks()
})

describe('createModal: v2 expiry', () => {
  test('default: a v2 URI shows its QR code and a countdown, updated each second', () => {
    const uri = v2Uri()
    createModal({ uri, platform: 'desktop', desktopLinks: [] })
    expect(qr().querySelector('path')?.getAttribute('d')).toBe(encodeQr(uri).path)
    expect(expiry().hidden).toBe(false)
    expect(timer()).toBe(`Expires in 4:${(300 - EXPIRY_MARGIN_MS / 1000) % 60}`)
    vi.advanceTimersByTime(1000)
    expect(timer()).toBe('Expires in 4:39')
    // The live region stays quiet while the seconds run.
    expect(modal().root.querySelector('#expiry [role=status]')?.textContent).toBe('')
  })

  test('behavior: a v1 URI shows no countdown and starts no timer, as before', () => {
    createModal({ uri: v1Uri, platform: 'android' })
    expect(expiry().hidden).toBe(true)
    expect(expiry().textContent).toBe('')
    expect(vi.getTimerCount()).toBe(0)
  })

  test('behavior: the countdown shows on the wallet list too, in the modal language', async () => {
    createModal({ uri: v2Uri(), registryUrl, platform: 'ios', fetch: fakeFetch().fetch, language: 'de' })
    await settle()
    expect(modal().getByRole('tab', { selected: true }).textContent).toBe('Mobil')
    expect(timer()).toBe('Läuft ab in 4:40')
  })

  test('behavior: at expiry the code is covered and every way to use it disabled; onExpired runs once; the fresh URI shows live', async () => {
    const first = v2Uri()
    const onExpired = vi.fn()
    const onUserClose = vi.fn()
    const options = {
      platform: 'ios',
      fetch: fakeFetch().fetch,
      registryUrl,
      mobileLinks: ['rainbow', 'trust'],
      onExpired,
    } as const
    open(first, onUserClose, options)
    await settle()
    const host = modal().host
    expect(wallet('Rainbow').getAttribute('href')).toBe(
      `https://rnbwapp.com/wc?uri=${encodeURIComponent(first)}`,
    )

    vi.advanceTimersByTime(300_000 - EXPIRY_MARGIN_MS - 1)
    expect(onExpired).not.toHaveBeenCalled()
    vi.advanceTimersByTime(1)
    expect(onExpired).toHaveBeenCalledTimes(1)
    expect(timer()).toBe('This code has expired. Getting a new code…')
    expect(wallet('Rainbow').hasAttribute('href')).toBe(false)
    fireEvent.click(modal().getByRole('tab', { name: 'QR Code' }))
    expect(modal().root.querySelector('.qrbox')?.classList.contains('dead')).toBe(true)
    expect(qr().getAttribute('aria-busy')).toBe('true')
    expect(qr().getAttribute('aria-describedby')).toBe('expiry')
    expect(copyButton().disabled).toBe(true)
    vi.advanceTimersByTime(600_000)
    expect(onExpired).toHaveBeenCalledTimes(1)

    // The client answers with a new pairing: same modal, the new code live.
    const second = v2Uri()
    open(second, onUserClose, options)
    expect(modal().host).toBe(host)
    expect(qr().querySelector('path')?.getAttribute('d')).toBe(encodeQr(second).path)
    expect(modal().root.querySelector('.qrbox')?.classList.contains('dead')).toBe(false)
    expect(qr().hasAttribute('aria-busy')).toBe(false)
    expect(copyButton().disabled).toBe(false)
    expect(timer()).toBe('Expires in 4:40')
    fireEvent.click(modal().getByRole('tab', { name: 'Mobile' }))
    expect(wallet('Rainbow').getAttribute('href')).toBe(
      `https://rnbwapp.com/wc?uri=${encodeURIComponent(second)}`,
    )
    expect(onUserClose).not.toHaveBeenCalled()
  })

  test('behavior: without onExpired an expired code says so, with no button; the close button still works', () => {
    createModal({ uri: v2Uri(30), platform: 'desktop', desktopLinks: [] })
    vi.advanceTimersByTime(10_000)
    expect(timer()).toBe('This code has expired.')
    expect(modal().queryByRole('button', { name: 'Try again' })).toBeNull()
    expect(copyButton().disabled).toBe(true)
    expect(modal().root.getElementById('walletconnect-qrcode-close')?.hasAttribute('disabled')).toBe(false)
  })

  test('behavior: a failed refresh offers Try again, which calls onExpired again and takes focus', async () => {
    const onExpired = vi.fn().mockRejectedValueOnce(new Error('relay down'))
    createModal({ uri: v2Uri(30), platform: 'desktop', desktopLinks: [], onExpired })
    copyButton().focus()
    vi.advanceTimersByTime(10_000)
    await vi.advanceTimersByTimeAsync(0)
    const button = modal().getByRole('button', { name: 'Try again' })
    // Focus was on the copy button, which went dead: it moves to the way forward, inside the dialog.
    expect(modal().root.activeElement).toBe(button)
    fireEvent.click(button)
    expect(onExpired).toHaveBeenCalledTimes(2)
    expect(timer()).toBe('This code has expired. Getting a new code…')
  })

  test('behavior: the Android Connect button and the one-wallet shortcut carry the current URI, none once expired', async () => {
    const first = v2Uri(30)
    const m = createModal({ uri: first, platform: 'android' })
    const connect = () =>
      modal().root.getElementById('walletconnect-connect-button-Connect') as HTMLAnchorElement
    expect(connect().getAttribute('href')).toBe(first)
    vi.advanceTimersByTime(10_000)
    expect(connect().hasAttribute('href')).toBe(false)
    fireEvent.click(connect())
    expect(localStorage.getItem(DEEPLINK_CHOICE_STORAGE_KEY)).toBeNull()
    const second = v2Uri()
    m.setUri(second)
    expect(connect().getAttribute('href')).toBe(second)

    createModal({
      uri: second,
      registryUrl,
      platform: 'ios',
      fetch: fakeFetch().fetch,
      mobileLinks: ['rainbow'],
    })
    await settle()
    const single = modal().getByRole('link', { name: 'Connect with Rainbow ›' })
    expect(single.getAttribute('href')).toBe(`https://rnbwapp.com/wc?uri=${encodeURIComponent(second)}`)
  })

  test('behavior: a URI that arrives already expired is shown expired and does not call onExpired by itself', () => {
    const onExpired = vi.fn()
    createModal({ uri: v2Uri(5), platform: 'desktop', desktopLinks: [], onExpired })
    expect(timer()).toBe('This code has expired.')
    expect(onExpired).not.toHaveBeenCalled()
    expect(modal().getByRole('button', { name: 'Try again' })).toBeTruthy()
  })

  test('behavior: closing clears the countdown — no timer, no onExpired, no listener left', () => {
    const add = vi.spyOn(document, 'addEventListener')
    const remove = vi.spyOn(document, 'removeEventListener')
    const onExpired = vi.fn()
    const m = createModal({ uri: v2Uri(), platform: 'desktop', desktopLinks: [], onExpired })
    m.close()
    vi.advanceTimersByTime(300)
    expect(document.getElementById('walletconnect-wrapper')).toBeNull()
    expect(vi.getTimerCount()).toBe(0)
    vi.advanceTimersByTime(600_000)
    expect(onExpired).not.toHaveBeenCalled()
    expect(add.mock.calls.length).toBeGreaterThan(0)
    for (const call of add.mock.calls) expect(remove.mock.calls).toContainEqual(call)
  })

  test('behavior: a modal replaced by a new one stops its countdown', () => {
    const onExpired = vi.fn()
    createModal({ uri: v2Uri(), platform: 'desktop', desktopLinks: [], onExpired })
    createModal({ uri: v1Uri, platform: 'desktop', desktopLinks: [] })
    expect(vi.getTimerCount()).toBe(0)
    vi.advanceTimersByTime(600_000)
    expect(onExpired).not.toHaveBeenCalled()
  })
})

describe('open: in-place replacement', () => {
  test('default: same options — the same modal takes the new URI; focus stays; the old callbacks are dropped', async () => {
    const writeText = vi.spyOn(navigator.clipboard, 'writeText').mockResolvedValue()
    const first = vi.fn()
    const second = vi.fn()
    open(v1Uri, first, { platform: 'desktop', desktopLinks: [] })
    const host = modal().host
    copyButton().focus()
    const uri = v2Uri()
    open(uri, second, { platform: 'desktop', desktopLinks: [] })
    expect(modal().host).toBe(host)
    expect(modal().root.getElementById('walletconnect-qrcode-modal')?.classList.contains('out')).toBe(false)
    expect(modal().root.activeElement).toBe(copyButton())
    expect(timer()).toBe('Expires in 4:40')
    fireEvent.click(copyButton())
    await vi.advanceTimersByTimeAsync(0)
    expect(writeText).toHaveBeenCalledWith(uri)
    fireEvent.keyDown(document, { key: 'Escape' })
    vi.advanceTimersByTime(300)
    expect(first).not.toHaveBeenCalled()
    expect(second).toHaveBeenCalledTimes(1)
  })

  test('behavior: other options open a new modal in its place', () => {
    open(v1Uri, undefined, { platform: 'desktop', desktopLinks: [] })
    const host = modal().host
    open(v1Uri, undefined, { platform: 'desktop', desktopLinks: [], theme: 'dark' })
    expect(modal().host).not.toBe(host)
    expect(document.querySelectorAll('#walletconnect-wrapper')).toHaveLength(1)
  })

  test('behavior: after the person closed it, open() opens a new modal', () => {
    open(v1Uri, undefined, { platform: 'android' })
    const host = modal().host
    fireEvent.keyDown(document, { key: 'Escape' })
    open(v1Uri, undefined, { platform: 'android' })
    expect(modal().host).not.toBe(host)
  })
})
