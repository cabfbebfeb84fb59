import { onTestFinished } from 'vitest'
import { WebSocketServer } from 'ws'
import type { ReconnectOptions, TransportState } from '../src/socket.js'
import { createTransport, getWebSocketUrl } from '../src/transport.js'
import { createRelayConnection } from '../src/v2/relay.js'
import { createRecorder } from './recorder.js'

/**
 * A plain `ws` server on 127.0.0.1 (port 0) that refuses upgrades (HTTP 503: neither generation takes it as a
 * refusal of the client) until `accept`, and drops its sockets on `dropAll`. Closed when the test finishes.
 */
export async function startSocketServer() {
  let accepting = false
  const server = new WebSocketServer({
    host: '127.0.0.1',
    port: 0,
    verifyClient: (_info, callback) => callback(accepting, 503),
  })
  await new Promise((resolve) => server.once('listening', resolve))
  const dropAll = () => {
    for (const ws of server.clients) ws.terminate()
  }
  onTestFinished(async () => {
    dropAll()
    await new Promise((resolve) => server.close(resolve))
  })
  return {
    port: (server.address() as { port: number }).port,
    accept: () => {
      accepting = true
    },
    /** Every client socket is lost (no close frame, as after a network drop). */
    dropAll,
  }
}

/**
 * Both generations' transports to one server, driven alike: v1's bridge transport (`createTransport`) and v2's relay
 * connection (`createRelayConnection`), each on a recorder of its own. Closed when the test finishes.
 */
export function createBothGenerations(port: number, reconnect: ReconnectOptions) {
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
  onTestFinished(() => {
    for (const { connection } of both) connection.close()
  })
  return {
    open: () => {
      for (const { connection } of both) connection.open()
    },
    /** Each has opened a socket `count` times so far. */
    opened: (count: number) =>
      both.every(({ states }) => states.filter((s) => s === 'open').length === count),
    /** Each has made at least `count` sockets (opened or not). */
    sockets: (count: number) => both.every(({ recorder }) => recorder.urls.length >= count),
    /** Each has left the open state (its socket was lost). */
    lost: () => both.every(({ connection }) => connection.state === 'connecting'),
    states: () => both.map(({ connection }) => connection.state),
    reconnects: () => ({ v1: transport.reconnects, v2: relay.reconnects }),
  }
}
