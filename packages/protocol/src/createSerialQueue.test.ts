import { expect, test } from 'vitest'
import { createSerialQueue } from './createSerialQueue.js'

/** A promise with its resolve and reject, to finish a task when the test says so. */
function deferred<value>() {
  let resolve!: (value: value) => void
  let reject!: (error: unknown) => void
  const promise = new Promise<value>((res, rej) => {
    resolve = res
    reject = rej
  })
  return { promise, resolve, reject }
}

test('default: tasks run one at a time, in the order they were added', async () => {
  const queue = createSerialQueue()
  const steps: string[] = []
  const first = deferred<void>()
  const a = queue.add(async () => {
    steps.push('a start')
    await first.promise
    steps.push('a end')
    return 'a'
  })
  const b = queue.add(() => {
    steps.push('b')
    return 'b'
  })
  await Promise.resolve()
  expect(steps).toEqual(['a start'])
  first.resolve()
  expect(await Promise.all([a, b])).toEqual(['a', 'b'])
  expect(steps).toEqual(['a start', 'a end', 'b'])
})

test('behavior: a task starts after the caller’s turn, never during `add`', () => {
  const queue = createSerialQueue()
  let ran = false
  void queue.add(() => {
    ran = true
  })
  expect(ran).toBe(false)
})

test('error: a failed task rejects its own promise only; the next one runs', async () => {
  const queue = createSerialQueue()
  const failed = queue.add(async () => {
    throw new Error('write failed')
  })
  const thrown = queue.add(() => {
    throw new Error('sync throw')
  })
  const next = queue.add(() => 'next')
  await expect(failed).rejects.toThrow('write failed')
  await expect(thrown).rejects.toThrow('sync throw')
  expect(await next).toBe('next')
})

test('behavior: idle resolves once every task added so far has settled, and never rejects', async () => {
  const queue = createSerialQueue()
  expect(await queue.idle()).toBeUndefined()
  const gate = deferred<void>()
  const settled: string[] = []
  const failing = queue.add(async () => {
    await gate.promise
    throw new Error('no')
  })
  failing.catch(() => settled.push('failing'))
  const idle = queue.idle().then(() => settled.push('idle'))
  // Added after `idle` was asked for: not waited for.
  void queue.add(() => new Promise<void>(() => {}))
  gate.resolve()
  await idle
  expect(settled).toEqual(['failing', 'idle'])
})
