import { connect, createServer, type Socket } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { createBridge } from '@pairlink/bridge'
import { freePort, waitFor } from '@pairlink/test-kit'
import { startRedis, type TestRedis } from '@pairlink/test-kit/redis'
import { pino } from 'pino'
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest'
import WebSocket from 'ws'
import { loadConfig } from './config.js'
import { createAppServer } from './createAppServer.js'
import { createBridgeBackend } from './createBridgeBackend.js'
import { createWalletList } from './registry.js'

// Server nodes built as main.ts builds them (loadConfig → createBridgeBackend → createBridge → createAppServer), on
// one real redis-server, linked by real TCP connections.
const registryFile = fileURLToPath(new URL('../data/wallets.json', import.meta.url))
const logosDir = fileURLToPath(new URL('../data/logos', import.meta.url))
const SECRET = 'correct-horse-battery-staple'
// Links come up in the background while frames go through Redis; a loaded machine may take a while to dial.
const LINK_TIMEOUT_MS = 20_000

let redis: TestRedis
beforeAll(async () => {
  redis = await startRedis()
})
afterAll(() => redis?.stop())

const cleanups: (() => unknown)[] = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
})

let run = 0
/** Keys of their own per test, shared by the nodes of that test, even on a shared `REDIS_URL`. */
const prefix = () => `${redis.keyPrefix}server-links:${++run}:`

/** A server node with `env` (and REDIS_URL), on 127.0.0.1: its origin. */
async function startNode(env: Record<string, string>, keyPrefix: string) {
  const config = loadConfig({ ...env, REDIS_URL: redis.url })
  const backend = await createBridgeBackend({ ...config, keyPrefix })
  const bridge = createBridge({ backend, logger: pino({ level: 'silent' }) })
  await bridge.start()
  cleanups.push(() => bridge.close())
  const none = join(tmpdir(), 'pairlink-no-app')
  const app = createAppServer({
    bridge,
    // Never called: these tests use the bridge alone.
    rpcUrl: 'http://127.0.0.1:1',
    chainId: 31337,
    registry: createWalletList({ snapshotFile: registryFile, logosDir }),
    webDir: none,
    walletDir: none,
  })
  await new Promise<void>((resolve) => app.server.listen(0, '127.0.0.1', resolve))
  cleanups.push(() => app.close())
  return `http://127.0.0.1:${(app.server.address() as { port: number }).port}`
}

/** A v1 socket on `origin`: every frame it received, and `send`. */
async function open(origin: string) {
  const ws = new WebSocket(origin.replace('http', 'ws'))
  const received: string[] = []
  ws.on('message', (data) => received.push(String(data)))
  await new Promise((resolve, reject) => ws.once('open', resolve).once('error', reject))
  cleanups.push(() => ws.terminate())
  return {
    received,
    send: (type: 'sub' | 'pub', topic: string, payload = '') =>
      ws.send(JSON.stringify({ topic, type, payload, silent: true })),
  }
}

/** A TCP proxy on 127.0.0.1 to a node's link port, that sees what the dialling node sends through it. */
async function linkProxy(port: number) {
  let seen = ''
  let connections = 0
  const sockets = new Set<Socket>()
  const server = createServer((client) => {
    connections++
    const upstream = connect(port, '127.0.0.1')
    for (const socket of [client, upstream]) {
      sockets.add(socket)
      socket.on('error', () => socket.destroy()).on('close', () => sockets.delete(socket))
    }
    client.on('data', (chunk: Buffer) => {
      seen += chunk.toString('latin1')
    })
    client.pipe(upstream).pipe(client)
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  cleanups.push(() => {
    for (const socket of sockets) socket.destroy()
    return new Promise((resolve) => server.close(resolve))
  })
  return {
    address: `127.0.0.1:${(server.address() as { port: number }).port}`,
    seen: () => seen,
    connections: () => connections,
  }
}

/** Publishes one frame from `publisher` to `topic` and waits until `subscriber` received it: its payload. */
let sent = 0
async function deliver(
  publisher: Awaited<ReturnType<typeof open>>,
  subscriber: typeof publisher,
  topic: string,
) {
  const payload = `frame-${++sent}`
  publisher.send('pub', topic, payload)
  await waitFor(() => subscriber.received.some((frame) => frame.includes(`"${payload}"`)), {
    timeout: 10_000,
    message: `${payload} delivered`,
  })
  return payload
}

/**
 * Node A (`envA`) publishing to a subscriber on node B (`envB` with BRIDGE_LINK_LISTEN on a free port), which
 * advertises a proxy in front of it: a frame seen there was dialled at the advertised address and reached the
 * listening one, over a link (plain TCP: the frame itself is on the wire after the handshake).
 */
async function publishAcross(envA: Record<string, string>, envB: Record<string, string>) {
  const keyPrefix = prefix()
  const portB = await freePort()
  const front = await linkProxy(portB)
  const a = await startNode(envA, keyPrefix)
  const b = await startNode(
    { BRIDGE_LINK_LISTEN: `127.0.0.1:${portB}`, BRIDGE_LINK_ADVERTISE: front.address, ...envB },
    keyPrefix,
  )
  const subscriber = await open(b)
  const publisher = await open(a)
  subscriber.send('sub', 'topic')
  return { front, send: () => deliver(publisher, subscriber, 'topic') }
}

describe('createBridgeBackend', () => {
  test('behavior: nodes link as BRIDGE_LINK_LISTEN and BRIDGE_LINK_ADVERTISE say, proving BRIDGE_LINK_SECRET', async () => {
    const portA = await freePort()
    const linkA = `127.0.0.1:${portA}`
    const { front, send } = await publishAcross(
      { BRIDGE_LINK_LISTEN: linkA, BRIDGE_LINK_ADVERTISE: linkA, BRIDGE_LINK_SECRET: SECRET },
      { BRIDGE_LINK_SECRET: SECRET },
    )
    // The first frames go through Redis while A learns where the topic's subscriber is and dials B.
    const deadline = Date.now() + LINK_TIMEOUT_MS
    for (;;) {
      const payload = await send()
      if (front.seen().includes(`"${payload}"`)) break
      if (Date.now() > deadline)
        throw new Error(
          `No frame over the link within ${LINK_TIMEOUT_MS} ms: ${sent} sent and delivered, ${front.connections()} link connections, ${front.seen().length} bytes through`,
        )
    }
    expect(front.connections()).toBe(1)
    // A listens on its own BRIDGE_LINK_LISTEN too: a connection there is challenged at once (`c`, then its id).
    const challenge = await new Promise<string>((resolve, reject) => {
      const socket = connect(portA, '127.0.0.1')
      cleanups.push(() => socket.destroy())
      socket.once('data', (chunk: Buffer) => resolve(chunk.toString('latin1', 4, 5)))
      socket.once('error', reject)
    })
    expect(challenge).toBe('c')
  })

  test('error: nodes with different BRIDGE_LINK_SECRETs never link; their frames go through Redis', async () => {
    const { front, send } = await publishAcross(
      { BRIDGE_LINK_SECRET: SECRET },
      { BRIDGE_LINK_SECRET: `${SECRET}-other` },
    )
    const payloads = [await send()]
    // A does dial B at the advertised address (and is refused there): frames go to B directly now.
    const deadline = Date.now() + LINK_TIMEOUT_MS
    while (front.connections() === 0) {
      if (Date.now() > deadline) throw new Error(`A never dialled B within ${LINK_TIMEOUT_MS} ms`)
      payloads.push(await send())
    }
    for (let i = 0; i < 10; i++) payloads.push(await send())
    expect(payloads.filter((payload) => front.seen().includes(`"${payload}"`))).toEqual([])
  })

  test('args: BRIDGE_LINK_LISTEN=off sends everything through Redis, never over a link', async () => {
    // B takes links (as in the tests above): only A's setting keeps them off.
    const { front, send } = await publishAcross(
      { BRIDGE_LINK_LISTEN: 'off', BRIDGE_LINK_SECRET: SECRET },
      { BRIDGE_LINK_SECRET: SECRET },
    )
    // More frames than links on need to come up, each delivered (through Redis) before the next is sent.
    for (let i = 0; i < 20; i++) await send()
    expect(front.connections()).toBe(0)
    expect(front.seen()).toBe('')
  })
})
