import { waitFor } from '@pairlink/test-kit'
import { afterEach, expect, test, vi } from 'vitest'
import { sequencedHead } from './linkWire.js'
import { createStreamReceiver } from './streamReceiver.js'

const A = 'a'.repeat(16)
const message = (seq: number, body: string, epoch = 1) => Buffer.from(sequencedHead(A, epoch, seq) + body)

function receiver() {
  const handled: string[] = []
  const acks: string[] = []
  const gaps: number[] = []
  const stream = createStreamReceiver({
    handle: (inner) => handled.push(inner.toString()),
    ack: (origin, epoch, seq) => acks.push(`${origin === A ? 'A' : origin} ${epoch}.${seq}`),
    gap: (_origin, missing) => gaps.push(missing),
  })
  return { stream, handled, acks, gaps }
}

afterEach(() => {
  vi.useRealTimers()
})

test('default', () => {
  const { stream, handled } = receiver()
  for (const [seq, body] of [
    [1, 'one'],
    [2, 'two'],
  ] as const)
    stream.receive(message(seq, body), false)
  expect(handled).toEqual(['one', 'two'])
  stream.close()
})

test('behavior: a message that comes before an earlier one waits for it; a second copy is dropped', () => {
  const { stream, handled } = receiver()
  stream.receive(message(1, 'one'), true)
  stream.receive(message(3, 'three'), true)
  stream.receive(message(4, 'four'), true)
  expect(handled).toEqual(['one'])
  stream.receive(message(2, 'two'), false)
  stream.receive(message(3, 'three'), false)
  stream.receive(message(1, 'one'), false)
  expect(handled).toEqual(['one', 'two', 'three', 'four'])
  stream.close()
})

test('behavior: messages from the link are acked after a while, or at once when asked', async () => {
  const { stream, acks } = receiver()
  stream.receive(message(1, 'one'), true)
  stream.receive(message(2, 'two'), true)
  expect(acks).toEqual([])
  await waitFor(() => acks.length > 0, { message: 'the ack' })
  expect(acks).toEqual(['A 1.2'])
  stream.receive(message(3, 'three'), true)
  stream.ackNow(A)
  await new Promise((resolve) => setImmediate(resolve))
  expect(acks).toEqual(['A 1.2', 'A 1.3'])
  stream.close()
})

test('behavior: link messages that waited for one through Redis are acked once handled', async () => {
  const { stream, acks } = receiver()
  stream.receive(message(2, 'two'), true)
  stream.ackNow(A)
  await new Promise((resolve) => setImmediate(resolve))
  expect(acks).toEqual(['A 1.0'])
  stream.receive(message(1, 'one'), false)
  await waitFor(() => acks.length > 1, { message: 'the second ack' })
  expect(acks).toEqual(['A 1.0', 'A 1.2'])
  stream.close()
})

test('behavior: a new stream of the same origin starts over', () => {
  const { stream, handled } = receiver()
  stream.receive(message(1, 'one'), false)
  stream.receive(message(2, 'two'), false)
  stream.receive(message(1, 'again', 2), false)
  expect(handled).toEqual(['one', 'two', 'again'])
  stream.close()
})

test('error: a message that never comes is given up after a while, and what waited for it is handled', () => {
  vi.useFakeTimers()
  const { stream, handled, gaps } = receiver()
  stream.receive(message(1, 'one'), false)
  stream.receive(message(3, 'three'), false)
  stream.receive(message(4, 'four'), false)
  vi.advanceTimersByTime(1_999)
  expect(handled).toEqual(['one'])
  vi.advanceTimersByTime(1)
  expect(handled).toEqual(['one', 'three', 'four'])
  expect(gaps).toEqual([1])
  stream.receive(message(2, 'two'), false)
  expect(handled).toHaveLength(3)
  stream.close()
})

test('error: a malformed numbered message throws', () => {
  const { stream } = receiver()
  expect(() => stream.receive(Buffer.from(`s${A}x`), false)).toThrow(/malformed/)
})
