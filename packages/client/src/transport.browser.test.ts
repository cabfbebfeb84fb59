// @vitest-environment happy-dom

import { waitFor } from '@pairlink/test-kit'
import { expect, test } from 'vitest'
import { startBridge } from '../test/bridge.js'
import { createRecorder } from '../test/recorder.js'
import { createTransport, getWebSocketUrl } from './transport.js'

test('behavior: the online event reconnects at once instead of waiting out the backoff', async () => {
  const bridge = await startBridge()
  const recorder = createRecorder()
  const transport = createTransport({
    url: getWebSocketUrl(bridge.url),
    WebSocket: recorder.WebSocket,
    subscriptions: () => ['own'],
    onMessage: () => {},
    // Far longer than the test: only the online event can bring the socket back in time.
    reconnect: { minDelay: 60_000, maxDelay: 60_000 },
  })
  transport.open()
  await waitFor(() => transport.state === 'open')
  await bridge.stop()
  await waitFor(() => transport.state === 'connecting')
  await bridge.start()
  // The bridge is back, yet no new socket was tried: the backoff holds it (one socket so far).
  expect(recorder.urls).toHaveLength(1)
  expect(transport.state).toBe('connecting')
  window.dispatchEvent(new Event('online'))
  await waitFor(() => transport.state === 'open', { timeout: 2000 })
  expect(recorder.urls).toHaveLength(2)
  transport.close()
  await bridge.stop()
})
