import { afterEach, expect, test, vi } from 'vitest'
import { createEmitter } from './emitter.js'

afterEach(() => {
  vi.useRealTimers()
})

test('default', () => {
  const emitter = createEmitter<{ chainChanged: string }>()
  const seen: string[] = []
  const listener = (chainId: string) => seen.push(chainId)
  emitter.on('chainChanged', listener)
  emitter.emit('chainChanged', '0x1')
  expect(emitter.count('chainChanged')).toBe(1)
  emitter.off('chainChanged', listener)
  emitter.emit('chainChanged', '0x2')
  expect(seen).toEqual(['0x1'])
  expect(emitter.count('chainChanged')).toBe(0)
})

test('behavior: a listener may remove itself while the event is delivered', () => {
  const emitter = createEmitter<{ block: number }>()
  const seen: string[] = []
  const first = () => {
    seen.push('first')
    emitter.off('block', first)
  }
  emitter.on('block', first)
  emitter.on('block', () => seen.push('second'))
  emitter.emit('block', 1)
  emitter.emit('block', 2)
  expect(seen).toEqual(['first', 'second', 'second'])
})

test('behavior: a throwing listener does not stop the others; its error is rethrown on its own task', () => {
  vi.useFakeTimers()
  const emitter = createEmitter<{ block: number }>()
  const seen: number[] = []
  emitter.on('block', () => {
    throw new Error('listener bug')
  })
  emitter.on('block', (n) => seen.push(n))
  emitter.emit('block', 7)
  expect(seen).toEqual([7])
  expect(() => vi.runAllTimers()).toThrow('listener bug')
})
