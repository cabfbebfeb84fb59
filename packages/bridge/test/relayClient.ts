import {
  type CreateRelayParameters,
  createRelay,
  type Relay,
  type RelayConnection,
} from '../src/v2/createRelay.js'
import { createFakeSocket, type FakeSocket } from './fakeSocket.js'

/** A v2 client of an in-process relay over a fake socket (the relay core's own seam), speaking as the SDK does. */
class RelayTestClient {
  private nextId = 1795338265514170000n
  constructor(
    readonly socket: FakeSocket,
    readonly connection: RelayConnection,
  ) {}
  /** Sends a request with a 19-digit string id, as the SDK does; returns the id. */
  call(method: string, params: unknown) {
    const id = String(++this.nextId)
    this.connection.receive(JSON.stringify({ id, jsonrpc: '2.0', method, params }), 0)
    return id
  }
  /** Every frame sent to this client since the last call, parsed (and taken). */
  frames() {
    return this.socket.sent.splice(0).map((text) => JSON.parse(text))
  }
  pushes() {
    return this.frames().filter((frame) => frame.method === 'irn_subscription')
  }
  /** Acks a push as the SDK writes it. */
  ack(push: { id: number }) {
    this.connection.receive(JSON.stringify({ id: push.id, jsonrpc: '2.0', result: true }), 0)
  }
}

/**
 * A relay (added to `relays`, for the test's afterEach to close) and a factory of its clients, each on a socket of
 * its own.
 */
export function setupRelay(relays: Relay[], parameters: CreateRelayParameters = {}) {
  const relay = createRelay(parameters)
  relays.push(relay)
  let n = 0
  const client = (clientId: string, address = '127.0.0.1') => {
    const socket = createFakeSocket(String(++n), address)
    return new RelayTestClient(socket, relay.connect(socket, clientId))
  }
  return { relay, client }
}

/** `irn_publish` params as the SDK sends them. */
export const publishParams = (topic: string, message: string, tag = 1108, ttl = 300) => ({
  topic,
  message,
  ttl,
  tag,
  prompt: true,
})
