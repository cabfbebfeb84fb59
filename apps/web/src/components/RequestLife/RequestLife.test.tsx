import type { RequestStatusEvent } from '@pairlink/provider'
import { act, cleanup, render, screen } from '@testing-library/react'
import { afterEach, describe, expect, test } from 'vitest'
import { type RequestEvents, RequestEventsProvider } from '../../hooks/useRequestLife.js'
import { formatTimeLeft, RequestLifeLine, requestLifeText } from './RequestLife.js'

afterEach(cleanup)

/** The provider's side of the seam: the listeners the line added, and a way to speak to them. */
function events(protocol: 1 | 2) {
  const listeners = new Set<(event: RequestStatusEvent) => void>()
  const source: RequestEvents = {
    protocol,
    watch: (listener) => {
      listeners.add(listener)
      return () => listeners.delete(listener)
    },
  }
  const expiresAt = Date.now() + 300_000
  const emit = (status: RequestStatusEvent['status'], id = 7, method = 'personal_sign') =>
    act(() => {
      for (const listener of listeners) listener({ id, method, status, at: Date.now(), expiresAt })
    })
  return { source, emit, listeners }
}

function line(source: RequestEvents, busy: boolean) {
  return (
    <RequestEventsProvider value={source}>
      <RequestLifeLine testId="card" busy={busy} methods={['personal_sign']} />
    </RequestEventsProvider>
  )
}

describe('RequestLifeLine', () => {
  test('default: v2’s steps in words, the time left, then nothing once answered', () => {
    const { source, emit } = events(2)
    const view = render(line(source, true))
    const step = screen.getByTestId('card-life')
    expect(step.getAttribute('aria-live')).toBe('polite')
    expect(step.textContent).toBe('')
    emit('sent', 1, 'eth_sendTransaction') // another card's request
    expect(step.textContent).toBe('')
    emit('sent')
    expect(step.textContent).toBe(requestLifeText('sent', 2))
    emit('relayed')
    expect(step.textContent).toBe('The relay has your request. Waiting for your wallet’s answer.')
    expect(screen.getByTestId('card-expiry').textContent).toMatch(/^Expires in (5:00|4:59)$/)
    emit('answered')
    view.rerender(line(source, false))
    expect(step.textContent).toBe('')
    expect(step.getAttribute('data-steps')).toBe('sent relayed answered')
    expect(screen.getByTestId('card-expiry').textContent).toBe('')
  })

  test('behavior: v1 says the bridge has it, never that the wallet does', () => {
    const { source, emit } = events(1)
    render(line(source, true))
    emit('sent')
    expect(screen.getByTestId('card-life').textContent).toBe(
      'Sent to the bridge. Waiting for your wallet’s answer.',
    )
  })

  test('behavior: an expiry stays on the card after it stops waiting; the next run starts afresh', () => {
    const { source, emit, listeners } = events(2)
    const view = render(line(source, true))
    emit('sent')
    emit('expired')
    view.rerender(line(source, false))
    const step = screen.getByTestId('card-life')
    expect(step.textContent).toBe('Expired: your wallet did not answer in time. You can try again.')
    expect(listeners.size).toBe(0)
    view.rerender(line(source, true))
    expect(step.textContent).toBe('')
  })

  test('behavior: without events (a browser wallet) the line stays empty, its room kept', () => {
    render(<RequestLifeLine testId="card" busy={true} methods={['personal_sign']} />)
    expect(screen.getByTestId('card-life').textContent).toBe('')
  })

  test('formatTimeLeft', () => {
    expect(formatTimeLeft(300)).toBe('Expires in 5:00')
    expect(formatTimeLeft(61)).toBe('Expires in 1:01')
    expect(formatTimeLeft(0)).toBe('Expires in 0:00')
  })
})
