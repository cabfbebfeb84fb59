import { waitFor } from '@pairlink/test-kit'
import { createBlockTracker } from '../src/blockTracker.js'
import { createHttpConnection } from '../src/httpConnection.js'
import { createFakeChain, createFakeNode } from './fakeNode.js'

/**
 * Waits out a quiet stretch that provably was long enough: an independent tracker, polling its own node every
 * `interval` ms on the same event loop, must poll `times` times first. A poller under test that stays silent
 * meanwhile would have polled too, had it been running, so "no new call" is a check that can fail.
 *
 * @example
 * const before = node.calls.length
 * await witnessPolls(20)
 * expect(node.calls.length).toBe(before)
 */
export async function witnessPolls(interval: number, times = 3): Promise<void> {
  const chain = createFakeChain(1)
  const node = await createFakeNode((call) => chain.answer(call))
  const http = createHttpConnection({ url: node.url })
  const tracker = createBlockTracker({
    request: (args) => http.request(args),
    onBlock: () => {},
    onError: () => {},
    pollingInterval: interval,
  })
  try {
    tracker.start()
    await waitFor(() => node.calls.length >= times, { message: `the witness polled ${times} times` })
  } finally {
    tracker.stop()
    await node.close()
  }
}
