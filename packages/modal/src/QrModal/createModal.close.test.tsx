import { waitFor } from '@pairlink/test-kit'
import { fireEvent } from '@testing-library/dom'
import { afterEach, describe, expect, test, vi } from 'vitest'
import { modal, uri } from '../../test/fixtures.js'
import { createModal } from './createModal.js'

const tab = (shiftKey = false) =>
  fireEvent.keyDown(modal().root.activeElement ?? document.body, {
    key: 'Tab',
    shiftKey,
    bubbles: true,
    composed: true,
  })

afterEach(() => {
  document.body.replaceChildren()
  vi.useRealTimers()
  vi.restoreAllMocks()
})

describe('createModal: closing', () => {
  test.each([
    ['the close button', () => fireEvent.click(modal().root.getElementById('walletconnect-qrcode-close')!)],
    ['Escape', () => fireEvent.keyDown(document, { key: 'Escape' })],
    ['a click on the backdrop', () => fireEvent.click(modal().root.querySelector('.backdrop')!)],
  ])('behavior: %s fades out over 300 ms, then calls onUserClose once', (_, act) => {
    vi.useFakeTimers()
    const onUserClose = vi.fn()
    createModal({ uri, platform: 'android', onUserClose })
    act()
    act()
    expect(modal().root.getElementById('walletconnect-qrcode-modal')?.classList.contains('out')).toBe(true)
    vi.advanceTimersByTime(299)
    expect(document.getElementById('walletconnect-wrapper')).toBeTruthy()
    expect(onUserClose).not.toHaveBeenCalled()
    vi.advanceTimersByTime(1)
    expect(document.getElementById('walletconnect-wrapper')).toBeNull()
    expect(onUserClose).toHaveBeenCalledTimes(1)
    fireEvent.keyDown(document, { key: 'Escape' })
    vi.advanceTimersByTime(1000)
    expect(onUserClose).toHaveBeenCalledTimes(1)
  })

  test('behavior: a click inside the card does not close', () => {
    const onUserClose = vi.fn()
    createModal({ uri, platform: 'android', onUserClose })
    fireEvent.click(modal().getByRole('dialog'))
    expect(modal().root.getElementById('walletconnect-qrcode-modal')?.classList.contains('out')).toBe(false)
  })

  test('behavior: close() from the app fades without calling onUserClose', () => {
    vi.useFakeTimers()
    const onUserClose = vi.fn()
    const m = createModal({ uri, platform: 'android', onUserClose })
    m.close()
    vi.advanceTimersByTime(300)
    expect(document.getElementById('walletconnect-wrapper')).toBeNull()
    expect(onUserClose).not.toHaveBeenCalled()
  })

  test('behavior: with reduced motion the fade is skipped', () => {
    vi.spyOn(window, 'matchMedia').mockReturnValue({ matches: true } as MediaQueryList)
    const onUserClose = vi.fn()
    createModal({ uri, platform: 'android', onUserClose })
    fireEvent.keyDown(document, { key: 'Escape' })
    expect(document.getElementById('walletconnect-wrapper')).toBeNull()
    expect(onUserClose).toHaveBeenCalledTimes(1)
    expect(window.matchMedia).toHaveBeenCalledWith('(prefers-reduced-motion: reduce)')
  })

  test('behavior: destroy() removes at once', () => {
    createModal({ uri, platform: 'android' }).destroy()
    expect(document.getElementById('walletconnect-wrapper')).toBeNull()
  })
})

describe('createModal: focus', () => {
  test('behavior: focus moves into the dialog, is trapped, and returns to the opener', () => {
    vi.useFakeTimers()
    const opener = document.createElement('button')
    document.body.append(opener)
    opener.focus()
    createModal({ uri, platform: 'android' })
    const m = modal()
    expect(m.root.activeElement).toBe(m.getByRole('dialog'))
    const order = m.root.querySelectorAll<HTMLElement>('button, a[href]')
    const first = order[0]!
    const last = order[order.length - 1]!
    expect(first.id).toBe('walletconnect-qrcode-close')
    last.focus()
    tab()
    expect(m.root.activeElement).toBe(first)
    tab(true)
    expect(m.root.activeElement).toBe(last)
    fireEvent.click(first)
    vi.advanceTimersByTime(300)
    expect(document.activeElement).toBe(opener)
  })

  test('behavior: an opener the app disabled while pairing gets focus back once it is enabled again', async () => {
    const opener = document.createElement('button')
    document.body.append(opener)
    opener.focus()
    vi.spyOn(window, 'matchMedia').mockReturnValue({ matches: true } as MediaQueryList)
    // As the web app does: the button is disabled while the pairing runs, enabled again after the close.
    createModal({
      uri,
      platform: 'android',
      onUserClose: () => queueMicrotask(() => (opener.disabled = false)),
    })
    opener.disabled = true
    fireEvent.keyDown(document, { key: 'Escape' })
    expect(document.getElementById('walletconnect-wrapper')).toBeNull()
    expect(document.activeElement).not.toBe(opener)
    await waitFor(() => document.activeElement === opener, { message: 'focus back on the opener' })
  })

  test('behavior: opened later than the click (loaded lazily), focus returns to the returnFocusTo element', async () => {
    const opener = document.createElement('button')
    document.body.append(opener)
    vi.spyOn(window, 'matchMedia').mockReturnValue({ matches: true } as MediaQueryList)
    // The app disabled its button (which lost focus) before the modal's module arrived.
    opener.disabled = true
    expect(document.activeElement).toBe(document.body)
    createModal({
      uri,
      platform: 'android',
      returnFocusTo: opener,
      onUserClose: () => queueMicrotask(() => (opener.disabled = false)),
    })
    fireEvent.keyDown(document, { key: 'Escape' })
    await waitFor(() => document.activeElement === opener, {
      message: 'focus back on the returnFocusTo element',
    })
  })

  test('behavior: every control is a native button, link or input (keyboard reachable)', async () => {
    createModal({ uri, platform: 'android' })
    for (const element of modal().root.querySelectorAll('[role=tab], .copy, #walletconnect-qrcode-close')) {
      expect(element.tagName).toBe('BUTTON')
    }
  })

  test('behavior: arrow keys switch tabs', () => {
    createModal({ uri, platform: 'android' })
    const m = modal()
    m.getByRole('tab', { name: 'Mobile' }).focus()
    fireEvent.keyDown(m.getByRole('tab', { name: 'Mobile' }), { key: 'ArrowRight' })
    expect(m.getByRole('tab', { name: 'QR Code' }).getAttribute('aria-selected')).toBe('true')
    expect(m.root.activeElement).toBe(m.getByRole('tab', { name: 'QR Code' }))
  })
})
