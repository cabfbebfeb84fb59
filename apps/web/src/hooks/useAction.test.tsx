import { act, cleanup, renderHook } from '@testing-library/react'
import { afterEach, expect, test } from 'vitest'
import { en } from '../i18n/en.js'
import { useAction } from './useAction.js'

afterEach(cleanup)

/** A wallet answer the test gives when it wants. */
function deferred() {
  let resolve!: (value: string) => void
  let reject!: (error: unknown) => void
  const promise = new Promise<string>((res, rej) => {
    resolve = res
    reject = rej
  })
  return { promise, resolve, reject }
}

function setup() {
  const answers: ReturnType<typeof deferred>[] = []
  const hook = renderHook(() =>
    useAction(() => {
      const answer = deferred()
      answers.push(answer)
      return answer.promise
    }),
  )
  return { hook, answers }
}

test('default: an answer ends the wait with its result', async () => {
  const { hook, answers } = setup()
  let running!: Promise<void>
  act(() => {
    running = hook.result.current.run()
  })
  expect(hook.result.current.busy).toBe(true)
  await act(async () => {
    answers[0]?.resolve('0xsigned')
    await running
  })
  expect(hook.result.current).toMatchObject({ busy: false, result: '0xsigned', error: undefined })
})

test('behavior: cancel ends the wait with a plain message; the late answer is ignored', async () => {
  const { hook, answers } = setup()
  let running!: Promise<void>
  act(() => {
    running = hook.result.current.run()
  })
  expect(hook.result.current.busy).toBe(true)
  act(() => hook.result.current.cancel())
  expect(hook.result.current).toMatchObject({ busy: false, result: undefined, error: en.stopped_waiting })
  // The wallet answers after all: `run` has settled (so its outcome was handled) and the card did not change.
  await act(async () => {
    answers[0]?.resolve('0xlate')
    await running
  })
  expect(hook.result.current).toMatchObject({ busy: false, result: undefined, error: en.stopped_waiting })
})

test('behavior: a late failure after cancel is ignored too, and the next run works', async () => {
  const { hook, answers } = setup()
  let first!: Promise<void>
  act(() => {
    first = hook.result.current.run()
  })
  act(() => hook.result.current.cancel())
  let second!: Promise<void>
  act(() => {
    second = hook.result.current.run()
  })
  await act(async () => {
    answers[0]?.reject(new Error('wallet closed'))
    await first
  })
  expect(hook.result.current).toMatchObject({ busy: true, error: undefined })
  await act(async () => {
    answers[1]?.resolve('0xsecond')
    await second
  })
  expect(hook.result.current).toMatchObject({ busy: false, result: '0xsecond', error: undefined })
})
