import { fireEvent } from '@testing-library/dom'
import { afterEach, beforeAll, describe, expect, test, vi } from 'vitest'
import { fakeFetch, loadAllStrings, modal, registryUrl } from '../../test/fixtures.js'
import { close, open, setStatus, showError } from '../open.js'
import { createModal } from './createModal.js'

beforeAll(loadAllStrings)

const MESSAGE = "WalletConnect did not accept this site's project id."
const v2Uri = () =>
  `wc:${'7f'.repeat(32)}@2?expiryTimestamp=${Math.floor(Date.now() / 1000) + 300}&relay-protocol=irn&symKey=${'58'.repeat(32)}`

afterEach(() => {
  close()
  document.body.replaceChildren()
  vi.useRealTimers()
})

describe("createModal: the relay's refusal", () => {
  test('default: refused — one message in place of the code, the tabs and the countdown; no retry', () => {
    const m = createModal({ uri: v2Uri(), platform: 'desktop' })
    expect(modal().root.querySelector('#expiry')?.hasAttribute('hidden')).toBe(false)
    m.setStatus('refused', MESSAGE)
    const { root, getByRole, queryAllByRole } = modal()
    expect(getByRole('alert').textContent).toBe(MESSAGE)
    expect(root.getElementById('walletconnect-refused')?.textContent).toBe(MESSAGE)
    expect(root.querySelector('svg.walletconnect-qrcode__image')).toBeNull()
    expect(root.textContent).not.toContain('Copy to clipboard')
    expect(queryAllByRole('tab')).toEqual([])
    expect(root.querySelector('#expiry')?.hasAttribute('hidden')).toBe(true)
    expect(root.querySelector('[data-key="retry"],[data-key="refresh"]')).toBeNull()
    expect(getByRole('button', { name: 'Close' })).toBeTruthy()
  })

  test('behavior: no list keeps loading behind it — Loading... gives way, the fetch is aborted', () => {
    const { fetch } = fakeFetch(['pending'])
    const m = createModal({ uri: v2Uri(), platform: 'ios', fetch, registryUrl })
    expect(modal().root.textContent).toContain('Loading...')
    m.setStatus('refused')
    expect(modal().root.textContent).not.toContain('Loading...')
    // Without the app's words, the modal's own, in its language.
    expect(modal().getByRole('alert').textContent).toBe(
      'The relay refused this site: no wallet can connect. Its operator must fix the WalletConnect settings.',
    )
  })

  test('behavior: the countdown stops — no onExpired while refused', () => {
    vi.useFakeTimers()
    const onExpired = vi.fn()
    const m = createModal({ uri: v2Uri(), platform: 'desktop', onExpired })
    m.setStatus('refused', MESSAGE)
    vi.advanceTimersByTime(400_000)
    expect(onExpired).not.toHaveBeenCalled()
  })

  test("behavior: 'ready' or a fresh URI brings the code back", () => {
    const m = createModal({ uri: v2Uri(), platform: 'desktop' })
    m.setStatus('refused', MESSAGE)
    m.setStatus('ready')
    expect(modal().root.querySelector('svg.walletconnect-qrcode__image')).toBeTruthy()
    m.setStatus('refused', MESSAGE)
    m.setUri(v2Uri().replace('7f7f', '7e7e'))
    expect(modal().root.getElementById('walletconnect-refused')).toBeNull()
    expect(modal().root.querySelector('svg.walletconnect-qrcode__image')).toBeTruthy()
  })

  test('behavior: in the modal language', () => {
    const m = createModal({ uri: v2Uri(), platform: 'desktop', language: 'de' })
    m.setStatus('refused')
    expect(modal().getByRole('alert').textContent).toContain('Das Relay lehnt diese Website ab')
  })
})

describe('showError', () => {
  test('default: with no modal open, opens one that only says why (a refusal comes before any code)', () => {
    const onUserClose = vi.fn()
    vi.useFakeTimers()
    showError(MESSAGE, onUserClose, { platform: 'ios', registryUrl, fetch: fakeFetch().fetch })
    const { root, getByRole } = modal()
    expect(getByRole('dialog')).toBeTruthy()
    expect(getByRole('alert').textContent).toBe(MESSAGE)
    expect(root.querySelector('svg')?.classList.contains('walletconnect-qrcode__image')).not.toBe(true)
    expect(root.textContent).not.toContain('Loading...')
    fireEvent.keyDown(document, { key: 'Escape' })
    vi.advanceTimersByTime(300)
    expect(onUserClose).toHaveBeenCalledTimes(1)
  })

  test('behavior: an open modal turns refused in place; setStatus says the same', () => {
    open(v2Uri(), undefined, { platform: 'desktop' })
    const host = modal().host
    showError(MESSAGE)
    expect(modal().host).toBe(host)
    expect(modal().getByRole('alert').textContent).toBe(MESSAGE)
    setStatus('ready')
    expect(modal().root.getElementById('walletconnect-refused')).toBeNull()
    setStatus('refused', 'other words')
    expect(modal().getByRole('alert').textContent).toBe('other words')
  })

  test('error: createModal still refuses an empty URI unless it opens refused', () => {
    expect(() => createModal({ uri: '' })).toThrowError('URI format is invalid')
  })
})
