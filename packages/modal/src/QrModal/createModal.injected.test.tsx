import { fireEvent } from '@testing-library/dom'
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest'
import { modal, uri } from '../../test/fixtures.js'
import { announce, fakeProvider, ICON, setLegacy, stopAnnouncing } from '../../test/injected.js'
import type { Modal } from './createModal.js'

// The page's wallets are heard for its lifetime (EIP-6963): each test loads the modal afresh, as a new page would.
const load = async () => {
  vi.resetModules()
  const { createModal } = await import('./createModal.js')
  // The fresh modules' German table (createModal speaks a language once it is loaded).
  await (await import('../locales/strings.js')).loadStrings('de')
  return {
    createModal: (parameters: Parameters<typeof createModal>[0]) => {
      const created = createModal(parameters)
      mounted.push(created)
      return created
    },
  }
}
const mounted: Modal[] = []
const chips = () => [...modal().root.querySelectorAll<HTMLButtonElement>('button.chip')]
const chipNames = () => chips().map((chip) => chip.querySelector('.name')?.textContent)

beforeEach(() => localStorage.clear())
afterEach(() => {
  // Each module copy keeps its own modal: destroyed, it stops hearing the page's wallets.
  for (const created of mounted.splice(0)) created.destroy()
  document.body.replaceChildren()
  stopAnnouncing()
  setLegacy(undefined)
  vi.useRealTimers()
})

describe('createModal: browser wallets', () => {
  test('default: the announced wallets come first, by name and icon, above the QR view', async () => {
    announce({ rdns: 'com.example.first', name: 'First Wallet' })
    announce({ rdns: 'com.example.second', name: 'Second Wallet' })
    const { createModal } = await load()
    createModal({ uri, platform: 'desktop', desktopLinks: [], onInjected: () => {} })
    const m = modal()
    const section = m.root.querySelector('.body')?.firstElementChild
    expect(section?.className).toBe('injected')
    expect(m.getByRole('list', { name: 'Installed in this browser' })).toBeTruthy()
    expect(chipNames()).toEqual(['First Wallet', 'Second Wallet'])
    expect(m.getByRole('button', { name: 'First Wallet' })).toBe(chips()[0])
    expect(chips().map((chip) => chip.querySelector('img')?.getAttribute('src'))).toEqual([ICON, ICON])
    // The QR view is still there, as before.
    expect(m.root.getElementById('walletconnect-qrcode-text')).toBeTruthy()
    expect(m.root.querySelector('svg.walletconnect-qrcode__image')).toBeTruthy()
  })

  test('behavior: choosing one closes the modal without onUserClose and hands over that wallet', async () => {
    vi.useFakeTimers()
    announce({ rdns: 'com.example.first', name: 'First Wallet' })
    const second = announce({ rdns: 'com.example.second', name: 'Second Wallet' })
    const { createModal } = await load()
    const onInjected = vi.fn()
    const onUserClose = vi.fn()
    createModal({ uri, platform: 'desktop', desktopLinks: [], onInjected, onUserClose })
    fireEvent.click(modal().getByRole('button', { name: 'Second Wallet' }))
    expect(onInjected).toHaveBeenCalledTimes(1)
    expect(onInjected.mock.calls[0]?.[0]).toBe(second)
    expect(modal().root.getElementById('walletconnect-qrcode-modal')?.classList.contains('out')).toBe(true)
    vi.advanceTimersByTime(300)
    expect(document.getElementById('walletconnect-wrapper')).toBeNull()
    expect(onUserClose).not.toHaveBeenCalled()
    // Remembered: first the next time.
    createModal({ uri, platform: 'desktop', desktopLinks: [], onInjected })
    expect(chipNames()).toEqual(['Second Wallet', 'First Wallet'])
  })

  test('behavior: an icon that is not a data:image URI is never an image, only the monogram', async () => {
    announce({ rdns: 'com.example.remote', name: 'Remote Icon', icon: 'https://tracker.example/icon.png' })
    announce({ rdns: 'com.example.script', name: 'Script Icon', icon: 'javascript:alert(1)' })
    announce({
      rdns: 'com.example.html',
      name: 'Html Icon',
      icon: 'data:text/html,<img src=x onerror=alert(1)>',
    })
    announce({ rdns: 'com.example.none', name: '<b>Markup</b> Wallet', icon: 42 as unknown as string })
    const { createModal } = await load()
    createModal({ uri, platform: 'desktop', desktopLinks: [], onInjected: () => {} })
    expect(modal().root.querySelectorAll('.chip img')).toHaveLength(0)
    expect(chips().map((chip) => chip.querySelector('.icon')?.textContent)).toEqual(['RI', 'SI', 'HI', 'BM'])
    // Names are text: the markup shows as written.
    expect(chips()[3]?.querySelector('.name')?.textContent).toBe('<b>Markup</b> Wallet')
    expect(modal().root.querySelector('.chip b')).toBeNull()
  })

  test('behavior: a wallet announcing itself while the modal is open joins the list', async () => {
    const { createModal } = await load()
    createModal({ uri, platform: 'desktop', desktopLinks: [], onInjected: () => {} })
    expect(modal().root.querySelector('.injected')).toBeNull()
    announce({ rdns: 'com.example.late', name: 'Late Wallet' })
    expect(chipNames()).toEqual(['Late Wallet'])
  })

  test('behavior: with none announced, the legacy window.ethereum, named in the modal language', async () => {
    const legacy = { ...fakeProvider() }
    setLegacy(legacy)
    const { createModal } = await load()
    const onInjected = vi.fn()
    createModal({ uri, platform: 'desktop', language: 'de', desktopLinks: [], onInjected })
    expect(modal().getByRole('list', { name: 'In diesem Browser installiert' })).toBeTruthy()
    expect(chipNames()).toEqual(['Browser-Wallet'])
    fireEvent.click(chips()[0] as HTMLButtonElement)
    expect(onInjected.mock.calls[0]?.[0]).toMatchObject({
      info: { rdns: 'window.ethereum' },
      provider: legacy,
    })
  })

  test('behavior: without onInjected, or with no wallet at all, no browser wallets and the same modal', async () => {
    announce({ rdns: 'com.example.first', name: 'First Wallet' })
    const { createModal } = await load()
    createModal({ uri, platform: 'desktop', desktopLinks: [] }).destroy()
    expect(document.getElementById('walletconnect-wrapper')).toBeNull()
    const without = createModal({ uri, platform: 'desktop', desktopLinks: [] })
    expect(modal().root.querySelector('.injected')).toBeNull()
    without.destroy()
    // A page where no wallet answers.
    stopAnnouncing()
    const fresh = await load()
    fresh.createModal({ uri, platform: 'desktop', desktopLinks: [], onInjected: () => {} })
    expect(modal().root.querySelector('.injected')).toBeNull()
    expect(modal().root.querySelector('.body')?.firstElementChild?.className).toBe('panel')
  })

  test('behavior: setUri with an onInjected offers the wallets in place; without, takes them away', async () => {
    announce({ rdns: 'com.example.first', name: 'First Wallet' })
    const { createModal } = await load()
    const m = createModal({ uri, platform: 'desktop', desktopLinks: [] })
    m.setUri(uri, { onInjected: () => {} })
    expect(chipNames()).toEqual(['First Wallet'])
    m.setUri(uri, {})
    expect(modal().root.querySelector('.injected')).toBeNull()
  })

  test('behavior: shown first on phones too (a wallet’s in-app browser announces itself)', async () => {
    announce({ rdns: 'com.example.first', name: 'First Wallet' })
    const { createModal } = await load()
    createModal({ uri, platform: 'android', onInjected: () => {} })
    expect(modal().root.querySelector('.body')?.firstElementChild?.className).toBe('injected')
    expect(modal().getByRole('tab', { name: 'Mobile' })).toBeTruthy()
  })
})
