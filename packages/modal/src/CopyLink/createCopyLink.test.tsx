import { fireEvent, within } from '@testing-library/dom'
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest'
import { uri } from '../../test/fixtures.js'
import { getStrings } from '../locales/strings.js'
import { createCopyLink } from './createCopyLink.js'

const strings = getStrings('en')

function mount() {
  const copy = createCopyLink({ uri, strings })
  document.body.append(copy.element)
  return { copy, ...within(copy.element) }
}

beforeEach(() => vi.useFakeTimers())
afterEach(() => {
  document.body.replaceChildren()
  vi.useRealTimers()
  vi.restoreAllMocks()
})

describe('createCopyLink', () => {
  test('default', async () => {
    const writeText = vi.spyOn(navigator.clipboard, 'writeText').mockResolvedValue()
    const m = mount()
    expect(m.getByRole('status').textContent).toBe('')
    fireEvent.click(m.getByRole('button', { name: 'Copy to clipboard' }))
    await vi.advanceTimersByTimeAsync(0)
    expect(writeText).toHaveBeenCalledWith(uri)
    expect(m.getByRole('status').textContent).toBe('Copied to clipboard!')
  })

  test('behavior: Copied to clipboard! shows for exactly 1200 ms, once', async () => {
    vi.spyOn(navigator.clipboard, 'writeText').mockResolvedValue()
    const m = mount()
    fireEvent.click(m.getByRole('button'))
    await vi.advanceTimersByTimeAsync(0)
    await vi.advanceTimersByTimeAsync(1199)
    expect(m.queryByText('Copied to clipboard!')).not.toBeNull()
    await vi.advanceTimersByTimeAsync(1)
    expect(m.queryByText('Copied to clipboard!')).toBeNull()
    await vi.advanceTimersByTimeAsync(10_000)
    expect(m.queryByText('Copied to clipboard!')).toBeNull()
    expect(vi.getTimerCount()).toBe(0)
  })

  test('behavior: a second copy restarts the 1200 ms', async () => {
    vi.spyOn(navigator.clipboard, 'writeText').mockResolvedValue()
    const m = mount()
    fireEvent.click(m.getByRole('button'))
    await vi.advanceTimersByTimeAsync(1000)
    fireEvent.click(m.getByRole('button'))
    await vi.advanceTimersByTimeAsync(1000)
    expect(m.queryByText('Copied to clipboard!')).not.toBeNull()
    await vi.advanceTimersByTimeAsync(200)
    expect(m.queryByText('Copied to clipboard!')).toBeNull()
  })

  test('behavior: falls back to execCommand without the async clipboard', async () => {
    vi.spyOn(navigator.clipboard, 'writeText').mockRejectedValue(new Error('denied'))
    const execCommand = vi.fn(() => true)
    Object.defineProperty(document, 'execCommand', { value: execCommand, configurable: true })
    const m = mount()
    fireEvent.click(m.getByRole('button'))
    await vi.advanceTimersByTimeAsync(0)
    expect(execCommand).toHaveBeenCalledWith('copy')
    expect(m.getByRole('status').textContent).toBe('Copied to clipboard!')
    expect(document.querySelector('textarea')).toBeNull()
  })

  test('error: shows Error when nothing can copy', async () => {
    vi.spyOn(navigator.clipboard, 'writeText').mockRejectedValue(new Error('denied'))
    Object.defineProperty(document, 'execCommand', { value: () => false, configurable: true })
    const m = mount()
    fireEvent.click(m.getByRole('button'))
    await vi.advanceTimersByTimeAsync(0)
    expect(m.getByRole('status').textContent).toBe('Error')
    await vi.advanceTimersByTimeAsync(1200)
    expect(m.getByRole('status').textContent).toBe('')
  })

  test('behavior: dispose stops the timer', async () => {
    vi.spyOn(navigator.clipboard, 'writeText').mockResolvedValue()
    const m = mount()
    fireEvent.click(m.getByRole('button'))
    await vi.advanceTimersByTimeAsync(0)
    m.copy.dispose()
    expect(vi.getTimerCount()).toBe(0)
  })
})
