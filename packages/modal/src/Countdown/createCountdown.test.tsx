import { within } from '@testing-library/dom'
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest'
import { EXPIRY_MARGIN_MS } from '../constants.js'
import { getStrings } from '../locales/strings.js'
import { type CodeState, createCountdown } from './createCountdown.js'

const strings = getStrings('en')
const T0 = 1_700_000_000_000
/** An expiry that leaves `seconds` on the countdown at T0 (the margin comes off the URI's expiry). */
const leaving = (seconds: number) => T0 + seconds * 1000 + EXPIRY_MARGIN_MS

function mount() {
  const states: CodeState[] = []
  const countdown = createCountdown({ strings, onState: (state) => states.push(state) })
  document.body.append(countdown.element)
  const m = within(countdown.element)
  return {
    countdown,
    states,
    line: () => m.getByRole('timer').textContent,
    said: () => m.getByRole('status').textContent,
    button: () => m.queryByRole('button', { name: 'Try again' }),
  }
}

beforeEach(() => {
  vi.useFakeTimers()
  vi.setSystemTime(T0)
})
afterEach(() => {
  document.body.replaceChildren()
  vi.useRealTimers()
  vi.restoreAllMocks()
})

describe('createCountdown', () => {
  test('default: counts down each second, to the margin before the expiry', () => {
    const m = mount()
    m.countdown.start(T0 + 300_000, undefined)
    expect(m.countdown.element.hidden).toBe(false)
    expect(m.line()).toBe(`Expires in 4:${String(60 - EXPIRY_MARGIN_MS / 1000).padStart(2, '0')}`)
    m.countdown.start(leaving(299), undefined)
    expect(m.line()).toBe('Expires in 4:59')
    vi.advanceTimersByTime(999)
    expect(m.line()).toBe('Expires in 4:59')
    vi.advanceTimersByTime(1)
    expect(m.line()).toBe('Expires in 4:58')
    vi.advanceTimersByTime(58_000)
    expect(m.line()).toBe('Expires in 4:00')
    vi.advanceTimersByTime(1000)
    expect(m.line()).toBe('Expires in 3:59')
    expect(m.states).toEqual([])
  })

  test('args: undefined (a v1 URI) hides the line and starts no timer', () => {
    const m = mount()
    m.countdown.start(undefined, () => {})
    expect(m.countdown.element.hidden).toBe(true)
    expect(vi.getTimerCount()).toBe(0)
  })

  test('behavior: the live region speaks at one minute left and at expiry, not every second', () => {
    const m = mount()
    m.countdown.start(leaving(62), undefined)
    const said: string[] = []
    for (let second = 0; second < 62; second++) {
      said.push(m.said() ?? '')
      vi.advanceTimersByTime(1000)
    }
    expect([...new Set(said)]).toEqual(['', 'Expires in 1:00'])
    expect(m.said()).toBe('This code has expired.')
    expect(m.line()).toBe('This code has expired.')
    expect(m.states).toEqual(['expired'])
    expect(m.button()).toBeNull()
    expect(vi.getTimerCount()).toBe(0)
  })

  test('behavior: at zero onExpired runs once and the line says a new code is coming; a new start is live', () => {
    const m = mount()
    const onExpired = vi.fn()
    m.countdown.start(leaving(3), onExpired)
    vi.advanceTimersByTime(2999)
    expect(onExpired).not.toHaveBeenCalled()
    vi.advanceTimersByTime(1)
    expect(onExpired).toHaveBeenCalledTimes(1)
    expect(m.line()).toBe('This code has expired. Getting a new code…')
    expect(m.said()).toBe('This code has expired. Getting a new code…')
    expect(m.states).toEqual(['refreshing'])
    vi.advanceTimersByTime(60_000)
    expect(onExpired).toHaveBeenCalledTimes(1)
    m.countdown.start(Date.now() + 300_000, onExpired)
    expect(m.states).toEqual(['refreshing', 'live'])
    expect(m.line()).toBe('Expires in 4:40')
    // The fresh code is announced to whoever heard "expired".
    expect(m.said()).toBe('Expires in 4:40')
  })

  test('behavior: an onExpired that rejects (or throws) leaves a Try again button that calls it again', async () => {
    const m = mount()
    const onExpired = vi
      .fn()
      .mockRejectedValueOnce(new Error('relay down'))
      .mockImplementationOnce(() => {
        throw new Error('still down')
      })
    m.countdown.start(leaving(1), onExpired)
    vi.advanceTimersByTime(1000)
    expect(m.states).toEqual(['refreshing'])
    await vi.advanceTimersByTimeAsync(0)
    expect(m.states).toEqual(['refreshing', 'expired'])
    expect(m.line()).toBe('This code has expired.')
    m.button()?.click()
    expect(onExpired).toHaveBeenCalledTimes(2)
    expect(m.states).toEqual(['refreshing', 'expired', 'refreshing', 'expired'])
    m.button()?.click()
    expect(onExpired).toHaveBeenCalledTimes(3)
    expect(m.line()).toBe('This code has expired. Getting a new code…')
    expect(m.button()).toBeNull()
  })

  test('behavior: a code that arrives expired does not call onExpired by itself (no loop), it offers the button', () => {
    const m = mount()
    const onExpired = vi.fn()
    m.countdown.start(T0 + EXPIRY_MARGIN_MS - 1, onExpired)
    expect(m.states).toEqual(['expired'])
    expect(onExpired).not.toHaveBeenCalled()
    m.button()?.click()
    expect(onExpired).toHaveBeenCalledTimes(1)
  })

  test('behavior: a late rejection for a code already replaced is ignored', async () => {
    const m = mount()
    let reject: (error: Error) => void = () => {}
    m.countdown.start(leaving(1), () => new Promise((_, r) => (reject = r)))
    vi.advanceTimersByTime(1000)
    m.countdown.start(Date.now() + 300_000, undefined)
    reject(new Error('late'))
    await vi.advanceTimersByTimeAsync(0)
    expect(m.states).toEqual(['refreshing', 'live'])
  })

  test('behavior: dispose stops every timer and listener; nothing runs later', () => {
    const m = mount()
    const onExpired = vi.fn()
    m.countdown.start(leaving(5), onExpired)
    m.countdown.dispose()
    expect(vi.getTimerCount()).toBe(0)
    vi.advanceTimersByTime(60_000)
    expect(onExpired).not.toHaveBeenCalled()
    expect(m.line()).toBe('Expires in 0:05')
  })
})
