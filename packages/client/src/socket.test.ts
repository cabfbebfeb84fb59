import { waitFor } from '@pairlink/test-kit'
import { describe, expect, test } from 'vitest'
import { createBothGenerations, startSocketServer } from '../test/generations.js'
import { getReconnectDelay } from './socket.js'

describe('getReconnectDelay', () => {
  test('default', () => {
    // Upper half random: attempt 0 lies in [250, 500] with the defaults.
    expect(getReconnectDelay(0, {}, () => 0)).toBe(250)
    expect(getReconnectDelay(0, {}, () => 1)).toBe(500)
  })

  test('behavior: grows exponentially up to maxDelay', () => {
    const schedule = [0, 1, 2, 3, 4, 5, 6, 7, 8, 20].map((attempt) => getReconnectDelay(attempt, {}, () => 1))
    expect(schedule).toMatchInlineSnapshot(`
      [
        500,
        1000,
        2000,
        4000,
        8000,
        16000,
        30000,
        30000,
        30000,
        30000,
      ]
    `)
  })

  test('behavior: jitter spreads clients over the upper half', () => {
    const delays = [0, 0.25, 0.5, 0.75, 1].map((r) =>
      getReconnectDelay(3, { minDelay: 100, maxDelay: 10_000 }, () => r),
    )
    expect(delays).toEqual([400, 500, 600, 700, 800])
  })

  test('args: minDelay, maxDelay', () => {
    expect(getReconnectDelay(10, { minDelay: 10, maxDelay: 50 }, () => 1)).toBe(50)
    expect(getReconnectDelay(1, { minDelay: 10, maxDelay: 50 }, () => 0)).toBe(10)
  })
})

describe('reconnects', () => {
  test('behavior: both generations count a re-open after a loss alike; a first open after failed attempts is none', async () => {
    const server = await startSocketServer()
    const both = createBothGenerations(server.port, { minDelay: 10, maxDelay: 40 })
    both.open()
    // The server refuses the first attempts: the sockets never opened, so nothing was lost yet.
    await waitFor(() => both.sockets(2), { message: 'attempts refused' })
    server.accept()
    await waitFor(() => both.opened(1), { message: 'first open' })
    const counts = [both.reconnects()]
    server.dropAll()
    await waitFor(() => both.opened(2), { message: 'open again after the first loss' })
    counts.push(both.reconnects())
    server.dropAll()
    await waitFor(() => both.opened(3), { message: 'open again after the second loss' })
    counts.push(both.reconnects())
    expect(both.states()).toEqual(['open', 'open'])
    expect(counts).toEqual([
      { v1: 0, v2: 0 },
      { v1: 1, v2: 1 },
      { v1: 2, v2: 2 },
    ])
  })
})
