import { waitFor } from '@pairlink/test-kit'
import { afterEach, describe, expect, test } from 'vitest'
import { WebSocketServer } from 'ws'
import { createRecorder } from '../test/recorder.js'
import { getReconnectDelay, type TransportState } from './socket.js'
import { createTransport, getWebSocketUrl } from './transport.js'
import { createRelayConnection } from './v2/relay.js'

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
  const servers: WebSocketServer[] = []
  afterEach(async () => {
    await Promise.all(servers.splice(0).map((server) => new Promise((resolve) => server.close(resolve))))
  })

  /** A plain `ws` server (port 0) that refuses upgrades (HTTP 503) until `accepting`, and drops its sockets. */
  async function startServer() {
    let accepting = false
    const server = new WebSocketServer({
      host: '127.0.0.1',
      port: 0,
      verifyClient: (_info, callback) => callback(accepting, 503),
    })
    servers.push(server)
    await new Promise((resolve) => server.once('listening', resolve))
    const { port } = server.address() as { port: number }
    return {
      port,
      accept: () => void (accepting = true),
      /** Every client socket is lost (no close frame, as a network drop). */
      dropAll: () => {
        for (const ws of server.clients) ws.terminate()
      },
    }
  }

  /** Both generations' transports on one server: v1's bridge transport and v2's relay connection. */
  function createBoth(port: number) {
    const reconnect = { minDelay: 10, maxDelay: 40 }
    const v1 = { recorder: createRecorder(), states: [] as TransportState[] }
    const v2 = { recorder: createRecorder(), states: [] as TransportState[] }
    const transport = createTransport({
      url: getWebSocketUrl(`http://127.0.0.1:${port}`),
      WebSocket: v1.recorder.WebSocket,
      subscriptions: () => [],
      onMessage: () => {},
      onStateChange: (state) => v1.states.push(state),
      reconnect,
    })
    const relay = createRelayConnection({
      url: async () => `ws://127.0.0.1:${port}`,
      WebSocket: v2.recorder.WebSocket,
      topics: () => [],
      onMessage: () => {},
      onDuplicate: () => {},
      onMalformed: () => {},
      onStateChange: (state) => v2.states.push(state),
      reconnect,
    })
    const both = [
      { ...v1, connection: transport },
      { ...v2, connection: relay },
    ]
    return {
      open: () => both.forEach(({ connection }) => connection.open()),
      close: () => both.forEach(({ connection }) => connection.close()),
      /** Every socket opened `count` times so far. */
      opened: (count: number) => both.every(({ states }) => states.filter((s) => s === 'open').length === count),
      sockets: (count: number) => both.every(({ recorder }) => recorder.urls.length >= count),
      states: () => both.map(({ connection }) => connection.state),
      reconnects: () => ({ v1: transport.reconnects, v2: relay.reconnects }),
    }
  }

  test('behavior: both generations count a re-open after a loss alike; a first open after failed attempts is none', async () => {
    const server = await startServer()
    const both = createBoth(server.port)
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
    both.close()
  })
})
