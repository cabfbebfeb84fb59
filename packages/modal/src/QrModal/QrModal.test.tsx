import { createPairingKey, formatPairingUri } from '@pairlink/protocol/v2'
import { act, render } from '@testing-library/react'
import { StrictMode } from 'react'
import { afterEach, describe, expect, test, vi } from 'vitest'
import { fakeFetch, modal, uri } from '../../test/fixtures.js'
import { announce, stopAnnouncing } from '../../test/injected.js'
import { encodeQr } from '../QrCode/encodeQr.js'
import { QrModal } from './QrModal.js'

afterEach(() => {
  document.body.replaceChildren()
  vi.useRealTimers()
})

describe('QrModal', () => {
  test('default', async () => {
    const { fetch } = fakeFetch()
    const view = render(<QrModal uri={uri} platform="desktop" fetch={fetch} />)
    expect(view.container.innerHTML).toBe('')
    expect(modal().root.getElementById('walletconnect-qrcode-text')).toBeTruthy()
  })

  test('behavior: the person closing it calls onClose after the fade', async () => {
    vi.useFakeTimers()
    const onClose = vi.fn()
    render(<QrModal uri={uri} platform="android" onClose={onClose} />)
    act(() => modal().root.getElementById('walletconnect-qrcode-close')?.click())
    act(() => vi.advanceTimersByTime(300))
    expect(onClose).toHaveBeenCalledTimes(1)
    expect(document.getElementById('walletconnect-wrapper')).toBeNull()
  })

  test('args: open={false} fades it out without onClose', () => {
    vi.useFakeTimers()
    const onClose = vi.fn()
    const view = render(<QrModal uri={uri} platform="android" onClose={onClose} />)
    view.rerender(<QrModal uri={uri} platform="android" onClose={onClose} open={false} />)
    act(() => vi.advanceTimersByTime(300))
    expect(document.getElementById('walletconnect-wrapper')).toBeNull()
    expect(onClose).not.toHaveBeenCalled()
  })

  test('args: status tells the same modal whether the bridge can be reached', () => {
    const view = render(<QrModal uri={uri} platform="desktop" desktopLinks={[]} status="unreachable" />)
    const host = modal().host
    const text = () => modal().root.getElementById('bridge-status')?.textContent
    expect(text()).toBe("Can't reach the bridge — retrying…")
    view.rerender(<QrModal uri={uri} platform="desktop" desktopLinks={[]} status="ready" />)
    expect(text()).toBe('')
    expect(modal().host).toBe(host)
  })

  test('behavior: re-rendering with equal options keeps the same modal', () => {
    const view = render(
      <QrModal uri={uri} platform="ios" mobileLinks={['rainbow']} fetch={fakeFetch().fetch} />,
    )
    const host = modal().host
    view.rerender(<QrModal uri={uri} platform="ios" mobileLinks={['rainbow']} fetch={fakeFetch().fetch} />)
    expect(modal().host).toBe(host)
  })

  test('behavior: a new uri is swapped into the same modal; onExpired is called when the code runs out', () => {
    vi.useFakeTimers()
    const pairing = (seconds: number) => {
      const { topic, symKey } = createPairingKey()
      return formatPairingUri({ topic, symKey, expiryTimestamp: Math.floor(Date.now() / 1000) + seconds })
    }
    const onClose = vi.fn()
    const onExpired = vi.fn()
    const first = pairing(30)
    const view = render(
      <QrModal uri={first} platform="desktop" desktopLinks={[]} onClose={onClose} onExpired={onExpired} />,
    )
    const host = modal().host
    const path = () => modal().root.querySelector('svg.walletconnect-qrcode__image path')?.getAttribute('d')
    expect(path()).toBe(encodeQr(first).path)
    act(() => vi.advanceTimersByTime(10_000))
    expect(onExpired).toHaveBeenCalledTimes(1)
    expect(modal().getByRole('timer').textContent).toBe('This code has expired. Getting a new code…')
    const second = pairing(300)
    view.rerender(
      <QrModal uri={second} platform="desktop" desktopLinks={[]} onClose={onClose} onExpired={onExpired} />,
    )
    expect(modal().host).toBe(host)
    expect(path()).toBe(encodeQr(second).path)
    expect(modal().getByRole('timer').textContent).toBe('Expires in 4:40')
    view.rerender(<QrModal uri={second} platform="desktop" desktopLinks={[]} onClose={onClose} />)
    act(() => vi.advanceTimersByTime(300_000))
    // Without onExpired now, the expired code just says so.
    expect(modal().getByRole('timer').textContent).toBe('This code has expired.')
    expect(onExpired).toHaveBeenCalledTimes(1)
    expect(onClose).not.toHaveBeenCalled()
  })

  test('args: onInjected lists the browser wallets in the same modal and gets the one chosen, by the latest prop', () => {
    vi.useFakeTimers()
    const wallet = announce({ rdns: 'com.example.react', name: 'React Wallet' })
    const onClose = vi.fn()
    const view = render(<QrModal uri={uri} platform="desktop" desktopLinks={[]} onClose={onClose} />)
    const host = modal().host
    expect(modal().root.querySelector('.injected')).toBeNull()
    const first = vi.fn()
    const latest = vi.fn()
    view.rerender(
      <QrModal uri={uri} platform="desktop" desktopLinks={[]} onClose={onClose} onInjected={first} />,
    )
    view.rerender(
      <QrModal uri={uri} platform="desktop" desktopLinks={[]} onClose={onClose} onInjected={latest} />,
    )
    expect(modal().host).toBe(host)
    act(() => modal().getByRole('button', { name: 'React Wallet' }).click())
    expect(latest).toHaveBeenCalledWith(wallet)
    expect(first).not.toHaveBeenCalled()
    act(() => vi.advanceTimersByTime(300))
    expect(document.getElementById('walletconnect-wrapper')).toBeNull()
    expect(onClose).not.toHaveBeenCalled()
    stopAnnouncing()
  })

  test('behavior: StrictMode mounts one modal', () => {
    render(
      <StrictMode>
        <QrModal uri={uri} platform="android" />
      </StrictMode>,
    )
    expect(document.querySelectorAll('#walletconnect-wrapper')).toHaveLength(1)
  })

  test("behavior: status 'refused' — the message in place of the code, also with no URI yet", () => {
    const view = render(<QrModal uri="" platform="desktop" status="refused" message="Refused." />)
    expect(modal().getByRole('alert').textContent).toBe('Refused.')
    expect(modal().root.querySelector('svg.walletconnect-qrcode__image')).toBeNull()
    view.rerender(<QrModal uri={uri} platform="desktop" status="ready" />)
    expect(modal().root.getElementById('walletconnect-refused')).toBeNull()
    expect(modal().root.querySelector('svg.walletconnect-qrcode__image')).toBeTruthy()
  })
})
