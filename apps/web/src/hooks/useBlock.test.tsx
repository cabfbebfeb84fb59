import type { Provider } from '@pairlink/provider'
import { act, cleanup, renderHook } from '@testing-library/react'
import { afterEach, beforeEach, expect, test, vi } from 'vitest'
import { HEAD_SETTLE_MS, STALL_INTERVALS, useBlock } from './useBlock.js'

const INTERVAL = 1_000

/** The provider's seam for this hook: its `block` and `error` events and `request`. */
function fakeProvider(nodeHead: () => bigint) {
  const listeners = new Map<string, Set<(payload: never) => void>>()
  const requests: string[] = []
  const provider = {
    on(event: string, listener: (payload: never) => void) {
      if (!listeners.has(event)) listeners.set(event, new Set())
      listeners.get(event)?.add(listener)
      return provider
    },
    removeListener(event: string, listener: (payload: never) => void) {
      listeners.get(event)?.delete(listener)
      return provider
    },
    async request({ method }: { method: string }) {
      requests.push(method)
      return `0x${nodeHead().toString(16)}`
    },
  }
  const emit = (number: bigint) => {
    for (const listener of listeners.get('block') ?? [])
      (listener as (b: unknown) => void)({ number: `0x${number.toString(16)}` })
  }
  return { provider: provider as unknown as Provider, emit, requests }
}

beforeEach(() => {
  vi.useFakeTimers()
})
afterEach(() => {
  cleanup()
  vi.useRealTimers()
})

test('behavior: the blocks of one poll settle into one head', async () => {
  const fake = fakeProvider(() => 0n)
  const { result } = renderHook(() => useBlock(fake.provider, true, { pollingInterval: INTERVAL }))
  act(() => {
    for (const n of [10n, 11n, 12n, 13n]) fake.emit(n)
  })
  expect(result.current.number).toBe(13n)
  expect(result.current.head).toBeUndefined()
  await act(() => vi.advanceTimersByTimeAsync(HEAD_SETTLE_MS))
  expect(result.current.head).toBe(13n)
})

test('behavior: a live chain is never asked for its head besides polling', async () => {
  const fake = fakeProvider(() => 0n)
  renderHook(() => useBlock(fake.provider, true, { pollingInterval: INTERVAL }))
  for (let n = 1n; n <= 10n; n++) {
    act(() => fake.emit(n))
    await act(() => vi.advanceTimersByTimeAsync(INTERVAL))
  }
  expect(fake.requests).toEqual([])
})

test('behavior: a node restarted from block 0 is reported and followed until the old head is passed', async () => {
  let head = 500n
  const fake = fakeProvider(() => head)
  const { result } = renderHook(() => useBlock(fake.provider, true, { pollingInterval: INTERVAL }))
  act(() => fake.emit(500n))
  expect(result.current.rewind).toBeUndefined()
  // The node restarts: the provider reports nothing below block 500, so the hook sees no new block.
  head = 3n
  await act(() => vi.advanceTimersByTimeAsync(INTERVAL * (STALL_INTERVALS + 1) + HEAD_SETTLE_MS))
  expect(fake.requests).toContain('eth_blockNumber')
  expect(result.current.rewind).toEqual({ from: 500n, to: 3n })
  expect(result.current.number).toBe(3n)
  expect(result.current.head).toBe(3n)
  // Followed, interval by interval.
  head = 5n
  await act(() => vi.advanceTimersByTimeAsync(INTERVAL + HEAD_SETTLE_MS))
  expect(result.current.number).toBe(5n)
  expect(result.current.rewind).toEqual({ from: 500n, to: 5n })
  // The provider's blocks pass the old head: the warning is over.
  act(() => fake.emit(501n))
  expect(result.current.rewind).toBeUndefined()
  expect(result.current.number).toBe(501n)
})

test('behavior: a block below the newest one, if the provider reports it, is a rewind too', () => {
  const fake = fakeProvider(() => 0n)
  const { result } = renderHook(() => useBlock(fake.provider, true, { pollingInterval: INTERVAL }))
  act(() => {
    fake.emit(40n)
    fake.emit(2n)
  })
  expect(result.current.rewind).toEqual({ from: 40n, to: 2n })
  expect(result.current.number).toBe(2n)
})

test('behavior: another chain starts afresh, its lower numbers are no rewind', () => {
  const fake = fakeProvider(() => 0n)
  const { result, rerender } = renderHook(
    ({ chainId }) => useBlock(fake.provider, true, { pollingInterval: INTERVAL, chainId }),
    { initialProps: { chainId: 31337 } },
  )
  act(() => fake.emit(40n))
  rerender({ chainId: 1 })
  expect(result.current.number).toBeUndefined()
  act(() => fake.emit(2n))
  expect(result.current.rewind).toBeUndefined()
  expect(result.current.number).toBe(2n)
})
