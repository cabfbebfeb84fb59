import { expect, test, vi } from 'vitest'
import { createEmitter } from './createEmitter.js'

type Events = { a: { n: number }; b: string }

test('default', () => {
  const emitter = createEmitter<Events>()
  const seen: unknown[] = []
  const off = emitter.on('a', (payload) => seen.push(payload))
  emitter.emit('a', { n: 1 })
  expect(emitter.listenerCount('a')).toBe(1)
  off()
  emitter.emit('a', { n: 2 })
  expect(seen).toEqual([{ n: 1 }])
  expect(emitter.listenerCount('a')).toBe(0)
})

test('behavior: once', () => {
  const emitter = createEmitter<Events>()
  const seen: string[] = []
  emitter.once('b', (payload) => seen.push(payload))
  emitter.emit('b', 'x')
  emitter.emit('b', 'y')
  expect(seen).toEqual(['x'])
  expect(emitter.listenerCount('b')).toBe(0)
})

test('behavior: off', () => {
  const emitter = createEmitter<Events>()
  const listener = vi.fn()
  emitter.on('b', listener)
  emitter.off('b', listener)
  emitter.emit('b', 'x')
  expect(listener).not.toHaveBeenCalled()
})

test('behavior: a function added twice is one listener', () => {
  const emitter = createEmitter<Events>()
  const listener = vi.fn()
  emitter.on('b', listener)
  emitter.on('b', listener)
  emitter.emit('b', 'x')
  expect(listener).toHaveBeenCalledOnce()
  expect(emitter.listenerCount('b')).toBe(1)
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

test('behavior: emit needs no `this`', () => {
  const emitter = createEmitter<Events>()
  const listener = vi.fn()
  emitter.on('b', listener)
  const { emit } = emitter
  emit('b', 'x')
  expect(listener).toHaveBeenCalledWith('x')
})

test('behavior: a throwing listener does not stop the others; its error goes to console.error', () => {
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

test('args: onListenerError', () => {
  const errors: unknown[] = []
  const emitter = createEmitter<Events>({ onListenerError: (error) => errors.push(error) })
  const bug = new Error('app bug')
  const after = vi.fn()
  emitter.on('b', () => {
    throw bug
  })
  emitter.on('b', after)
  emitter.emit('b', 'x')
  expect(errors).toEqual([bug])
  expect(after).toHaveBeenCalledWith('x')
})
