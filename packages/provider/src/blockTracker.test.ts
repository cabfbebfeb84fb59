import { waitFor } from '@pairlink/test-kit'
import { rpc, startAnvil } from '@pairlink/test-kit/anvil'
import { afterAll, afterEach, beforeAll, expect, test, vi } from 'vitest'
import { createFakeChain, createFakeNode, fakeBlock } from '../test/fakeNode.js'
import { witnessPolls } from '../test/witness.js'
import { type Block, createBlockTracker } from './blockTracker.js'
import { BlockNotFoundError, HttpRequestError } from './errors.js'
import { createHttpConnection } from './httpConnection.js'

const cleanups: (() => unknown)[] = []
afterEach(async () => {
  vi.useRealTimers()
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
})

const until = (predicate: () => boolean, timeout?: number) => waitFor(predicate, { timeout })

function track(parameters: Partial<Parameters<typeof createBlockTracker>[0]> & { url?: string }) {
  const blocks: Block[] = []
  const errors: Error[] = []
  const http = parameters.url ? createHttpConnection({ url: parameters.url, timeout: 1_000 }) : undefined
  const tracker = createBlockTracker({
    request: (args) => (http ? http.request(args) : Promise.reject(new Error('no node'))),
    onBlock: (block) => blocks.push(block),
    onError: (error) => errors.push(error),
    pollingInterval: 20,
    retryDelay: 5,
    ...parameters,
  })
  cleanups.push(() => tracker.stop())
  return { tracker, blocks, errors, numbers: () => blocks.map((b) => Number(b.number)) }
}

async function fakeChain(head: number, wrap?: (answer: () => unknown) => unknown) {
  const chain = createFakeChain(head)
  const node = await createFakeNode(
    (call) => (wrap ? wrap(() => chain.answer(call)) : chain.answer(call)) as never,
  )
  cleanups.push(() => node.close())
  return { chain, node }
}

test('default: the first poll emits the head, later polls each new block', async () => {
  const { chain, node } = await fakeChain(7)
  const { tracker, numbers } = track({ url: node.url })
  tracker.start()
  await until(() => numbers().length === 1)
  expect(node.calls[0]).toMatchObject({ method: 'eth_getBlockByNumber', params: ['latest', false] })
  chain.head = 8
  await until(() => numbers().length === 2)
  expect(numbers()).toEqual([7, 8])
  expect(tracker.latestBlock?.number).toBe('0x8')
})

test('behavior: the same head is never emitted twice', async () => {
  const { node } = await fakeChain(3)
  const { tracker, numbers } = track({ url: node.url })
  tracker.start()
  await until(() => node.calls.length >= 5)
  expect(numbers()).toEqual([3])
})

test('behavior: a jump fetches the missing blocks by number, in order', async () => {
  const { chain, node } = await fakeChain(10)
  const { tracker, numbers } = track({ url: node.url })
  tracker.start()
  await until(() => numbers().length === 1)
  chain.head = 14
  await until(() => numbers().length === 5)
  expect(numbers()).toEqual([10, 11, 12, 13, 14])
  const byNumber = node.calls.filter((c) => (c.params as string[])[0] !== 'latest').map((c) => c.params)
  expect(byNumber).toEqual([
    ['0xb', false],
    ['0xc', false],
    ['0xd', false],
  ])
})

test('args: maxBackfill caps how far back a jump is filled', async () => {
  const { chain, node } = await fakeChain(1)
  const { tracker, numbers } = track({ url: node.url, maxBackfill: 2 })
  tracker.start()
  await until(() => numbers().length === 1)
  chain.head = 50
  await until(() => numbers().length === 4)
  expect(numbers()).toEqual([1, 48, 49, 50])
})

test('behavior: an empty answer is retried, then the block comes', async () => {
  let nulls = 3
  const { node } = await fakeChain(5, (answer) => (nulls-- > 0 ? { result: null } : answer()))
  const { tracker, numbers, errors } = track({ url: node.url })
  tracker.start()
  await until(() => numbers().length === 1)
  expect(node.calls).toHaveLength(4)
  expect(errors).toEqual([])
})

test('error: still empty after 5 retries → Could not find block, then polling goes on', async () => {
  let nulls = 6
  const { node } = await fakeChain(5, (answer) => (nulls-- > 0 ? { result: null } : answer()))
  const { tracker, numbers, errors } = track({ url: node.url })
  tracker.start()
  await until(() => numbers().length === 1)
  expect(errors).toHaveLength(1)
  expect(errors[0]).toBeInstanceOf(BlockNotFoundError)
  expect(errors[0]?.message).toBe('Could not find block')
  expect(errors[0]).toMatchObject({ code: -32001 })
  expect(node.calls.slice(0, 6).every((c) => (c.params as string[])[0] === 'latest')).toBe(true)
})

test('behavior: 5 retries 1 s apart by default', async () => {
  vi.useFakeTimers()
  const times: number[] = []
  const errors: Error[] = []
  const start = Date.now()
  const tracker = createBlockTracker({
    request: async () => {
      times.push(Date.now() - start)
      return null
    },
    onBlock: () => {},
    onError: (error) => errors.push(error),
  })
  cleanups.push(() => tracker.stop())
  tracker.start()
  await vi.advanceTimersByTimeAsync(5_500)
  expect(times).toEqual([0, 1_000, 2_000, 3_000, 4_000, 5_000])
  expect(errors.map((e) => e.message)).toEqual(['Could not find block'])
})

test('behavior: polls every 4000 ms by default', async () => {
  vi.useFakeTimers()
  const times: number[] = []
  const start = Date.now()
  let n = 0
  const tracker = createBlockTracker({
    request: async () => {
      times.push(Date.now() - start)
      return fakeBlock(n++)
    },
    onBlock: () => {},
    onError: () => {},
  })
  cleanups.push(() => tracker.stop())
  tracker.start()
  await vi.advanceTimersByTimeAsync(12_500)
  expect(times).toEqual([0, 4_000, 8_000, 12_000])
})

test('behavior: failures back off exponentially, capped, and reset on success', async () => {
  vi.useFakeTimers()
  const times: number[] = []
  const start = Date.now()
  let fail = true
  const tracker = createBlockTracker({
    request: async () => {
      times.push(Date.now() - start)
      if (fail) throw new Error('down')
      return fakeBlock(1)
    },
    onBlock: () => {},
    onError: () => {},
    pollingInterval: 100,
    maxBackoff: 1_000,
  })
  cleanups.push(() => tracker.stop())
  tracker.start()
  await vi.advanceTimersByTimeAsync(3_500)
  // waits: 200, 400, 800, then capped at 1000
  expect(times).toEqual([0, 200, 600, 1_400, 2_400, 3_400])
  fail = false
  await vi.advanceTimersByTimeAsync(1_000)
  times.length = 0
  await vi.advanceTimersByTimeAsync(300)
  expect(times).toEqual([4_600, 4_700, 4_800])
})

test('error: a node that never answers gives time-out errors, not a stuck tracker', async () => {
  const node = await createFakeNode(() => 'hang')
  cleanups.push(() => node.close())
  const errors: Error[] = []
  const http = createHttpConnection({ url: node.url, timeout: 100 })
  const tracker = createBlockTracker({
    request: http.request,
    onBlock: () => {},
    onError: (error) => errors.push(error),
    pollingInterval: 10,
  })
  cleanups.push(() => tracker.stop())
  tracker.start()
  await until(() => errors.length >= 2)
  expect(errors[0]).toBeInstanceOf(HttpRequestError)
  expect(errors[0]?.message).toBe('HTTP request timed out after 100 ms (method: eth_getBlockByNumber)')
})

test('behavior: stop stops polling; start resumes; reset forgets the last block', async () => {
  const { chain, node } = await fakeChain(4)
  const { tracker, numbers } = track({ url: node.url })
  tracker.start()
  tracker.start()
  await until(() => numbers().length === 1)
  tracker.stop()
  expect(tracker.running).toBe(false)
  // A request in flight may still land; then a witness polling as often polls 3 times, and a tracker still running
  // would have been seen.
  await witnessPolls(20, 1)
  const calls = node.calls.length
  await witnessPolls(20)
  expect(node.calls.length).toBe(calls)
  chain.head = 2
  tracker.reset()
  tracker.start()
  await until(() => numbers().length === 2)
  expect(numbers()).toEqual([4, 2])
})

test('behavior: reset while a poll is in flight drops its answer and polls again', async () => {
  const answers: ((block: unknown) => void)[] = []
  const seen: number[] = []
  const tracker = createBlockTracker({
    request: () => new Promise((resolve) => answers.push(resolve)),
    onBlock: (block) => seen.push(Number(block.number)),
    onError: () => {},
    pollingInterval: 10_000,
  })
  cleanups.push(() => tracker.stop())
  tracker.start()
  await until(() => answers.length === 1)
  tracker.reset()
  await until(() => answers.length === 2)
  answers[0]?.(fakeBlock(100)) // the old chain's head: dropped
  answers[1]?.(fakeBlock(3))
  await until(() => seen.length === 1)
  // The old answer was resolved first, so its continuation ran before the new one's: had it not been dropped, it
  // would be in `seen` by now.
  expect(seen).toEqual([3])
})

test('behavior: a hidden page polls 4× slower and polls at once when shown again', async () => {
  vi.useFakeTimers()
  const doc = Object.assign(new EventTarget(), { visibilityState: 'hidden' })
  vi.stubGlobal('document', doc)
  cleanups.push(() => vi.unstubAllGlobals())
  const times: number[] = []
  const start = Date.now()
  let n = 0
  const tracker = createBlockTracker({
    request: async () => {
      times.push(Date.now() - start)
      return fakeBlock(n++)
    },
    onBlock: () => {},
    onError: () => {},
    pollingInterval: 100,
  })
  cleanups.push(() => tracker.stop())
  tracker.start()
  await vi.advanceTimersByTimeAsync(850)
  expect(times).toEqual([0, 400, 800])
  await vi.advanceTimersByTimeAsync(50)
  doc.visibilityState = 'visible'
  doc.dispatchEvent(new Event('visibilitychange'))
  await vi.advanceTimersByTimeAsync(250)
  expect(times).toEqual([0, 400, 800, 900, 1_000, 1_100])
})

// Real chain: anvil mines a block a second; every block between the first and the last seen must arrive once.
let anvil: Awaited<ReturnType<typeof startAnvil>>
beforeAll(async () => {
  anvil = await startAnvil({ blockTime: 1 })
})
afterAll(async () => {
  await anvil?.stop()
})

test('behavior: blocks counted against anvil own numbers', async () => {
  const { tracker, numbers, blocks, errors } = track({ url: anvil.url, pollingInterval: 300 })
  const first = Number(await rpc(anvil.url, 'eth_blockNumber'))
  tracker.start()
  await until(() => numbers().length >= 4, 10_000)
  tracker.stop()
  const last = numbers().at(-1) ?? 0
  expect(numbers()[0]).toBeGreaterThanOrEqual(first)
  expect(numbers()).toEqual(Array.from({ length: last - numbers()[0]! + 1 }, (_, i) => numbers()[0]! + i))
  for (const block of blocks) {
    const own = (await rpc(anvil.url, 'eth_getBlockByNumber', [block.number, false])) as Block
    expect(own.hash).toBe(block.hash)
  }
  expect(errors).toEqual([])
})

test('behavior: a paused tracker on anvil catches up every block it missed', async () => {
  const { tracker, numbers } = track({ url: anvil.url, pollingInterval: 5_000 })
  tracker.start()
  await until(() => numbers().length === 1)
  const first = numbers()[0]!
  // The first poll happened; the next is 5 s away, by then anvil has mined several blocks: they come in one go.
  await until(() => numbers().length >= 3, 10_000)
  expect(numbers()).toEqual(Array.from({ length: numbers().length }, (_, i) => first + i))
})

test('behavior: onPoll follows each poll’s blocks and is awaited; its failure counts as a failed poll', async () => {
  const { chain, node } = await fakeChain(3)
  const seen: string[] = []
  let release = () => {}
  let fail = false
  const { tracker, errors } = track({
    url: node.url,
    onBlock: (block) => seen.push(`block ${Number(block.number)}`),
    onPoll: () => {
      seen.push('poll')
      if (fail) return Promise.reject(new Error('logs failed'))
      return new Promise<void>((resolve) => {
        release = resolve
      })
    },
  })
  tracker.start()
  await until(() => seen.length === 2)
  chain.head = 5
  // Held in onPoll: no further poll meanwhile.
  await witnessPolls(20)
  expect(seen).toEqual(['block 3', 'poll'])
  expect(node.calls).toHaveLength(1)
  fail = true
  release()
  await until(() => errors.length === 1)
  expect(seen).toEqual(['block 3', 'poll', 'block 4', 'block 5', 'poll'])
  expect(errors[0]?.message).toBe('logs failed')
})
