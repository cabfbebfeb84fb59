import { expect, test, vi } from 'vitest'
import { createEmitter } from './emitter.js'

type Events = { a: { n: number }; b: string }

test('default', () => {
  const emitter = createEmitter<Events>()
  const seen: unknown[] = []
  const off = emitter.on('a', (payload) => seen.push(payload))
  emitter.emit('a', { n: 1 })
  off()
  emitter.emit('a', { n: 2 })
  expect(seen).toEqual([{ n: 1 }])
})

test('behavior: once', () => {
  const emitter = createEmitter<Events>()
  const seen: string[] = []
  emitter.once('b', (payload) => seen.push(payload))
  emitter.emit('b', 'x')
  emitter.emit('b', 'y')
  expect(seen).toEqual(['x'])
})

test('behavior: off', () => {
  const emitter = createEmitter<Events>()
  const listener = vi.fn()
  emitter.on('b', listener)
  emitter.off('b', listener)
  emitter.emit('b', 'x')
  expect(listener).not.toHaveBeenCalled()
})

test('behavior: a throwing listener does not stop the others', () => {
  const emitter = createEmitter<Events>()
  const error = vi.spyOn(console, 'error').mockImplementation(() => {})
  const after = vi.fn()
  emitter.on('b', () => {
    throw new Error('app bug')
  })
  emitter.on('b', after)
  emitter.emit('b', 'x')
  expect(after).toHaveBeenCalledWith('x')
  expect(error).toHaveBeenCalledOnce()
  error.mockRestore()
})
