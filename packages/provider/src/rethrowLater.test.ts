import { createEmitter } from '@pairlink/protocol'
import { afterEach, expect, test, vi } from 'vitest'
import { rethrowLater } from './rethrowLater.js'

afterEach(() => {
  vi.useRealTimers()
})

test('default: the error is thrown on its own task, not now', () => {
  vi.useFakeTimers()
  expect(() => rethrowLater(new Error('listener bug'))).not.toThrow()
  expect(() => vi.runAllTimers()).toThrow('listener bug')
})

test('behavior: a throwing listener does not stop the others; its error is rethrown on its own task', () => {
  vi.useFakeTimers()
  const emitter = createEmitter<{ block: number }>({ onListenerError: rethrowLater })
  const seen: number[] = []
  emitter.on('block', () => {
    throw new Error('listener bug')
  })
  emitter.on('block', (n) => seen.push(n))
  emitter.emit('block', 7)
  expect(seen).toEqual([7])
  expect(() => vi.runAllTimers()).toThrow('listener bug')
})
