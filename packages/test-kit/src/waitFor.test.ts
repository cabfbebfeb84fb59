import { describe, expect, test } from 'vitest'
import { freePort } from './freePort.js'
import { waitFor } from './waitFor.js'

describe('waitFor', () => {
  test('default: resolves with the first value that holds', async () => {
    let calls = 0
    const value = await waitFor(() => (++calls >= 3 ? `after ${calls}` : false), { interval: 1 })
    expect(value).toBe('after 3')
  })

  test('behavior: a throw counts as not yet', async () => {
    let calls = 0
    const value = await waitFor(
      () => {
        if (++calls < 2) throw new Error('not yet')
        return calls
      },
      { interval: 1 },
    )
    expect(value).toBe(2)
  })

  test('error: gives up after the time-out, naming the condition and keeping the last error', async () => {
    const error = await waitFor(
      () => {
        throw new Error('last')
      },
      { timeout: 30, interval: 5, message: 'the peer subscribed' },
    ).catch((e: Error) => e)
    expect(error).toBeInstanceOf(Error)
    expect((error as Error).message).toBe('waitFor: the peer subscribed did not hold within 30 ms')
    expect(((error as Error).cause as Error).message).toBe('last')
  })
})

describe('freePort', () => {
  test('default: a loopback port a server can listen on', async () => {
    const port = await freePort()
    expect(port).toBeGreaterThan(0)
    const { createServer } = await import('node:net')
    const server = createServer()
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject)
      server.listen(port, '127.0.0.1', resolve)
    })
    await new Promise<void>((resolve) => server.close(() => resolve()))
  })
})
