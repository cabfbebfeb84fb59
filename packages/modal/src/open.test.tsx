import { fireEvent } from '@testing-library/dom'
import { afterEach, describe, expect, test, vi } from 'vitest'
import { modal, uri } from '../test/fixtures.js'
import qrcodeModal, { close, open, setStatus, showError } from './open.js'

afterEach(() => {
  document.body.replaceChildren()
  vi.useRealTimers()
})

describe('open', () => {
  test('default', () => {
    open(uri, () => {}, { platform: 'android' })
    expect(modal().root.getElementById('walletconnect-connect-button-Connect')?.getAttribute('href')).toBe(
      uri,
    )
  })

  test('behavior: the default export has v1 qrcode-modal shape { open, close }, plus setStatus and showError', () => {
    expect(qrcodeModal).toEqual({ open, close, setStatus, showError })
  })

  test('behavior: onUserClose runs after the fade when the person closes it', () => {
    vi.useFakeTimers()
    const onUserClose = vi.fn()
    open(uri, onUserClose, { platform: 'android' })
    fireEvent.keyDown(document, { key: 'Escape' })
    vi.advanceTimersByTime(300)
    expect(onUserClose).toHaveBeenCalledTimes(1)
  })

  test('behavior: close() fades out without calling onUserClose; a second close() is a no-op', () => {
    vi.useFakeTimers()
    const onUserClose = vi.fn()
    open(uri, onUserClose, { platform: 'android' })
    close()
    close()
    vi.advanceTimersByTime(300)
    expect(document.getElementById('walletconnect-wrapper')).toBeNull()
    expect(onUserClose).not.toHaveBeenCalled()
  })

  test('behavior: options holding an element (returnFocusTo) open, and a second open() with them swaps the URI in place', () => {
    const button = document.body.appendChild(document.createElement('button'))
    // React keeps its fiber on the elements it renders, under an own property: a cycle back to the element.
    Object.assign(button, { __reactFiber: { stateNode: button } })
    open(uri, () => {}, { platform: 'android', returnFocusTo: button })
    const wrapper = document.getElementById('walletconnect-wrapper')
    const next = uri.replace(/key=[0-9a-f]+/, `key=${'b'.repeat(64)}`)
    open(next, () => {}, { platform: 'android', returnFocusTo: button })
    expect(document.getElementById('walletconnect-wrapper')).toBe(wrapper)
    expect(modal().root.getElementById('walletconnect-connect-button-Connect')?.getAttribute('href')).toBe(
      next,
    )
  })

  test('behavior: the URI is never logged (v1 logged it)', () => {
    const log = vi.spyOn(console, 'log')
    open(uri, undefined, { platform: 'android' })
    expect(log).not.toHaveBeenCalled()
  })
})

describe('setStatus', () => {
  test('behavior: tells the open modal; a no-op when none is open', () => {
    setStatus('unreachable')
    expect(document.getElementById('walletconnect-wrapper')).toBeNull()
    open(uri, () => {}, { platform: 'desktop', desktopLinks: [] })
    setStatus('unreachable')
    expect(modal().root.getElementById('bridge-status')?.textContent).toBe(
      "Can't reach the bridge — retrying…",
    )
    setStatus('ready')
    expect(modal().root.getElementById('bridge-status')?.textContent).toBe('')
  })
})
