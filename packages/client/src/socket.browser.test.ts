// @vitest-environment happy-dom

import { waitFor } from '@pairlink/test-kit'
import { expect, test } from 'vitest'
import { createBothGenerations, startSocketServer } from '../test/generations.js'

test('behavior: a socket lost and brought back by the online event is a re-open in both generations', async () => {
  const server = await startSocketServer()
  server.accept()
  // Far longer than the test: only the online event can bring the sockets back in time.
  const both = createBothGenerations(server.port, { minDelay: 60_000, maxDelay: 60_000 })
  both.open()
  await waitFor(() => both.opened(1), { message: 'first open' })
  server.dropAll()
  await waitFor(() => both.lost(), { message: 'sockets lost' })
  window.dispatchEvent(new Event('online'))
  await waitFor(() => both.opened(2), { message: 'open again', timeout: 2000 })
  expect(both.reconnects()).toEqual({ v1: 1, v2: 1 })
})
