// @vitest-environment happy-dom

import { expect, test } from 'vitest'
import WebSocket from 'ws'
import { startRelay } from '../test/relay.js'
import { sleep, until } from '../test/utils.js'
import { createTransport, getWebSocketUrl } from './transport.js'

test('behavior: the online event reconnects at once instead of waiting out the backoff', async () => {
  const bridge = await startBridge()
  const transport = createTransport({
    url: getWebSocketUrl(bridge.url),
    WebSocket,
    subscriptions: () => ['own'],
    onMessage: () => {},
    // Far longer than the test: only the online event can bring the socket back in time.
    reconnect: { minDelay: 60_000, maxDelay: 60_000 },
  })
  transport.open()
  await until(() => transport.state === 'open')
  await relay.stop()
  await until(() => transport.state === 'connecting')
  await relay.start()
  await sleep(50)
  expect(transport.state).toBe('connecting')
  window.dispatchEvent(new Event('online'))
  await until(() => transport.state === 'open', 2000)
  transport.close()
  await relay.stop()
})
