import { readFileSync } from 'node:fs'
import { waitFor } from '@pairlink/test-kit'
import pino from 'pino'
import { describe, expect, test } from 'vitest'
import { runScript } from '../test/bundle.js'
import { ack, createFakeSocket, pub, sub } from '../test/fakeSocket.js'
import type { Backend } from './backends/backend.js'
import { createMemoryBackend } from './backends/memory.js'
import { type CreateBridgeParameters, createBridge } from './createBridge.js'
import { InvalidBridgeOptionsError } from './errors.js'
import type { Logger } from './logger.js'

/** A logger that records what it is given (level, message and the `limit` field) for assertions. */
function capture() {
  const lines: { level: string; msg: string; limit?: unknown }[] = []
  const at = (level: string) => (object: Record<string, unknown>, msg: string) =>
    lines.push({ level, msg, ...('limit' in object ? { limit: object.limit } : {}) })
  const logger: Logger = { debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') }
  return { logger, lines }
}

async function setup(parameters: CreateBridgeParameters = {}) {
  const bridge = createBridge(parameters)
  await bridge.start()
  const open = (id: string) => {
    const socket = createFakeSocket(id)
    return { socket, connection: bridge.connect(socket) }
  }
  return { bridge, open, counts: bridge.metrics.counts }
}

test('default', async () => {
  const { open, counts } = await setup()
  const dapp = open('dapp')
  const wallet = open('wallet')
  wallet.connection.receive(sub('t1'))
  // Odd spacing and key order prove the frame is relayed as received, not re-serialised.
  const frame = '{ "silent":true,"topic":"t1", "type":"pub","payload":"{\\"data\\":\\"00\\"}" }'
  dapp.connection.receive(frame)
  expect(wallet.socket.sent).toEqual([frame])
  expect(dapp.socket.sent).toEqual([])
  expect(counts.published).toBe(1)
  expect(counts.delivered).toBe(1)
  expect(counts.subscriptions).toBe(1)
  expect(counts.connections).toBe(2)
})

describe('behavior', () => {
  test('behavior: pub goes to every live subscriber except the publishing socket', async () => {
    const { open } = await setup()
    const a = open('a')
    const b = open('b')
    const c = open('c')
    for (const peer of [a, b, c]) peer.connection.receive(sub('t'))
    a.connection.receive(pub('t', 'x'))
    expect(a.socket.sent).toEqual([])
    expect(b.socket.sent).toEqual([pub('t', 'x')])
    expect(c.socket.sent).toEqual([pub('t', 'x')])
  })

  test('behavior: without a live subscriber the message is queued and drained on sub, oldest first, once', async () => {
    const { open, counts } = await setup()
    const dapp = open('dapp')
    dapp.connection.receive(pub('t', '1'))
    dapp.connection.receive(pub('t', '2'))
    expect(counts.queued).toBe(2)
    const wallet = open('wallet')
    wallet.connection.receive(sub('t'))
    expect(wallet.socket.sent).toEqual([pub('t', '1'), pub('t', '2')])
    const other = open('other')
    other.connection.receive(sub('t'))
    wallet.connection.receive(sub('t'))
    expect(other.socket.sent).toEqual([])
    expect(wallet.socket.sent).toHaveLength(2)
  })

  test('behavior: the publisher alone on its topic queues for the peer', async () => {
    const { open, counts } = await setup()
    const a = open('a')
    a.connection.receive(sub('t'))
    a.connection.receive(pub('t', 'x'))
    expect(a.socket.sent).toEqual([])
    expect(counts.queued).toBe(1)
  })

  test('behavior: a failed send queues the message', async () => {
    const { open, counts } = await setup()
    const a = open('a')
    const b = open('b')
    b.connection.receive(sub('t'))
    b.socket.open = false
    a.connection.receive(pub('t', 'x'))
    expect(counts.queued).toBe(1)
    const c = open('c')
    c.connection.receive(sub('t'))
    expect(c.socket.sent).toEqual([pub('t', 'x')])
  })

  test('behavior: a drained message the socket cannot take goes back to the queue', async () => {
    const { open } = await setup()
    open('a').connection.receive(pub('t', 'x'))
    const b = open('b')
    b.socket.open = false
    b.connection.receive(sub('t'))
    const c = open('c')
    c.connection.receive(sub('t'))
    expect(c.socket.sent).toEqual([pub('t', 'x')])
  })

  test('behavior: ack and unknown types are ignored', async () => {
    const { open, counts } = await setup()
    const a = open('a')
    const b = open('b')
    b.connection.receive(sub('t'))
    a.connection.receive(ack('t'))
    a.connection.receive(JSON.stringify({ topic: 't', type: 'unsub', payload: '', silent: true }))
    expect(b.socket.sent).toEqual([])
    expect(counts.queued).toBe(0)
    expect(counts.invalidMalformed).toBe(0)
  })

  test('behavior: a frame without silent (pre-2019 clients) is relayed', async () => {
    const { open } = await setup()
    const a = open('a')
    const b = open('b')
    b.connection.receive(sub('t'))
    const frame = JSON.stringify({ topic: 't', type: 'pub', payload: 'x' })
    a.connection.receive(frame)
    expect(b.socket.sent).toEqual([frame])
  })

  test('behavior: a closed socket is unsubscribed, so later messages are queued', async () => {
    const { open, counts } = await setup()
    const a = open('a')
    const b = open('b')
    b.connection.receive(sub('t'))
    b.connection.close()
    b.connection.close()
    a.connection.receive(pub('t', 'x'))
    expect(b.socket.sent).toEqual([])
    expect(counts.queued).toBe(1)
    expect(counts.subscriptions).toBe(0)
    expect(counts.connections).toBe(1)
  })

  test('behavior: replays the recorded 1.8.0 session trace frame for frame', async () => {
    const vectors = JSON.parse(
      readFileSync(new URL('../../../../shared/protocol/vectors-v1.json', import.meta.url), 'utf8'),
    )
    const { open } = await setup()
    const peers = new Map<number, ReturnType<typeof open>>()
    const expected = new Map<number, string[]>()
    for (const frame of vectors.session_trace.frames) {
      if (frame.event === 'connect') {
        peers.set(frame.socket, open(String(frame.socket)))
        expected.set(frame.socket, [])
      } else if (frame.direction === 'client->bridge') peers.get(frame.socket)?.connection.receive(frame.raw)
      else if (frame.direction?.startsWith('bridge->client')) expected.get(frame.socket)?.push(frame.raw)
    }
    expect(expected.get(1)?.length).toBeGreaterThan(5)
    for (const [id, frames] of expected) expect(peers.get(id)?.socket.sent).toEqual(frames)
  })
})

describe('error', () => {
  test('error: malformed, non-object and wrong-typed frames are counted and ignored', async () => {
    const { open, counts } = await setup()
    const a = open('a')
    const b = open('b')
    b.connection.receive(sub('t'))
    for (const bad of [
      'not json',
      '',
      '[]',
      'null',
      '42',
      '"text"',
      '{"topic":"t","type":"pub"}',
      '{"topic":1,"type":"pub","payload":"x","silent":true}',
      '{"topic":"t","type":"pub","payload":{},"silent":true}',
      '{"topic":"t","type":"pub","payload":"x","silent":"no"}',
      '{"topic":"t","type":5,"payload":"x","silent":true}',
    ])
      a.connection.receive(bad)
    expect(counts.invalidMalformed).toBe(11)
    a.connection.receive(pub('t', 'ok'))
    expect(b.socket.sent).toEqual([pub('t', 'ok')])
  })

  test('error: a topic longer than maxTopicLength, or empty, is ignored', async () => {
    const { open, counts } = await setup({ maxTopicLength: 8 })
    const a = open('a')
    a.connection.receive(sub('123456789'))
    a.connection.receive(pub('123456789', 'x'))
    a.connection.receive(pub('', 'x'))
    expect(counts.invalidTopic).toBe(3)
    expect(counts.subscriptions).toBe(0)
    expect(counts.queued).toBe(0)
  })

  test('error: subscriptions beyond maxTopicsPerSocket are refused', async () => {
    const { open, counts } = await setup({ maxTopicsPerSocket: 2 })
    const a = open('a')
    const b = open('b')
    for (const topic of ['t1', 't2', 't3']) a.connection.receive(sub(topic))
    a.connection.receive(sub('t1'))
    expect(counts.subscriptions).toBe(2)
    expect(counts.refusedTopicsPerSocket).toBe(1)
    b.connection.receive(pub('t3', 'x'))
    expect(a.socket.sent).toEqual([])
  })

  test('error: a frame beyond the token bucket is counted, logged, and closes its socket with 1008', async () => {
    const { logger, lines } = capture()
    const { open, counts } = await setup({ maxMessagesPerSecond: 0.001, messageBurst: 3, logger })
    const a = open('a')
    const b = open('b')
    b.connection.receive(sub('t'))
    for (let i = 0; i < 5; i++) a.connection.receive(pub('t', String(i)))
    expect(b.socket.sent).toEqual([pub('t', '0'), pub('t', '1'), pub('t', '2')])
    expect(counts.refusedRateLimit).toBe(1)
    expect(a.socket.closedWith).toEqual([1008, 'Rate limit exceeded'])
    expect(lines).toEqual([{ level: 'warn', msg: 'rate limit exceeded, closing socket', limit: 'socket' }])
    // The limit is per socket: another socket still gets through.
    open('c').connection.receive(pub('t', 'c'))
    expect(b.socket.sent).toHaveLength(4)
  })

  test('behavior: acks cost no token', async () => {
    const { open, counts } = await setup({ maxMessagesPerSecond: 0.001, messageBurst: 3 })
    const a = open('a')
    const b = open('b')
    b.connection.receive(sub('t'))
    for (let i = 0; i < 100; i++) a.connection.receive(ack('t'))
    for (let i = 0; i < 3; i++) a.connection.receive(pub('t', String(i)))
    expect(b.socket.sent).toHaveLength(3)
    expect(counts.refusedRateLimit).toBe(0)
    expect(a.socket.closedWith).toBeUndefined()
  })

  test('behavior: frames queued before a sub reach it before live ones published while the drain is pending', async () => {
    // A backend whose drain answers later (as Redis does): the seam is the Backend interface.
    let answer: (frames: readonly string[]) => void = () => {}
    const memory = createMemoryBackend()
    const backend: Backend = {
      ...memory,
      drain: () =>
        new Promise<readonly string[]>((resolve) => {
          answer = resolve
        }),
    }
    const { open } = await setup({ backend })
    const reader = open('reader')
    const writer = open('writer')
    reader.connection.receive(sub('t'))
    writer.connection.receive(pub('t', 'live 1'))
    writer.connection.receive(pub('t', 'live 2'))
    expect(reader.socket.sent).toEqual([])
    answer([pub('t', 'queued 1'), pub('t', 'queued 2')])
    await waitFor(() => reader.socket.sent.length === 4 || undefined)
    expect(reader.socket.sent).toEqual([
      pub('t', 'queued 1'),
      pub('t', 'queued 2'),
      pub('t', 'live 1'),
      pub('t', 'live 2'),
    ])
    // Once drained, live frames go straight through again.
    writer.connection.receive(pub('t', 'live 3'))
    expect(reader.socket.sent).toHaveLength(5)
  })

  test('error: invalid options throw InvalidBridgeOptionsError', () => {
    for (const bad of [
      { ttlSeconds: 0 },
      { maxFrameBytes: -1 },
      { maxTopicsPerSocket: Number.NaN },
      { maxQueueLength: Number.POSITIVE_INFINITY },
      { messageBurst: 0 },
    ])
      expect(() => createBridge(bad)).toThrow(InvalidBridgeOptionsError)
    expect(() => createBridge({ maxMessagesPerSecond: 0, maxConnectionsPerIp: 0 })).not.toThrow()
  })
})

describe('args', () => {
  test('args: maxMessagesPerSecond 0 disables the rate limit', async () => {
    const { open, counts } = await setup({ maxMessagesPerSecond: 0, messageBurst: 1 })
    const a = open('a')
    for (let i = 0; i < 1000; i++) a.connection.receive(pub('t', String(i)))
    expect(counts.refusedRateLimit).toBe(0)
  })

  test('args: receive counts UTF-8 bytes when the adapter gives none', async () => {
    const { open, counts } = await setup()
    const a = open('a')
    const b = open('b')
    b.connection.receive(sub('t'))
    const frame = pub('t', 'é😀')
    a.connection.receive(frame)
    expect(counts.bytesReceived).toBe(Buffer.byteLength(sub('t')) + Buffer.byteLength(frame))
    expect(counts.bytesSent).toBe(Buffer.byteLength(frame))
  })
})

describe('logger', () => {
  // A backend whose publish fails: the core logs it through its logger (and counts it).
  const failingBackend = (): Backend => ({
    ...createMemoryBackend(),
    publish: () => Promise.reject(new Error('redis down')),
  })

  test('args: logger gets (object, message) calls', async () => {
    const calls: [string, Record<string, unknown>, string][] = []
    const record = (level: string) => (object: Record<string, unknown>, message: string) => {
      calls.push([level, object, message])
    }
    const logger: Logger = {
      debug: record('debug'),
      info: record('info'),
      warn: record('warn'),
      error: record('error'),
    }
    const { open, counts } = await setup({ backend: failingBackend(), logger })
    open('a').connection.receive(pub('t', 'x'))
    await waitFor(() => counts.backendErrors === 1, { message: 'the backend failure' })
    expect(calls).toEqual([
      ['warn', { backend: 'memory', error: 'Error: redis down' }, 'backend operation failed'],
    ])
  })

  test('args: logger accepts a pino logger as it is', async () => {
    const lines: string[] = []
    const logger = pino(
      { level: 'debug', base: null, timestamp: false },
      { write: (line: string) => lines.push(line) },
    )
    const { open, counts } = await setup({ backend: failingBackend(), logger })
    open('a').connection.receive(pub('t', 'x'))
    await waitFor(() => lines.length === 1, { message: 'the pino line' })
    expect(counts.backendErrors).toBe(1)
    expect(JSON.parse(lines[0] as string)).toEqual({
      level: 40,
      backend: 'memory',
      error: 'Error: redis down',
      msg: 'backend operation failed',
    })
  })

  test('default: silent', async () => {
    // In a process of its own: pino writes to the file descriptor, past any spy on process.stdout.
    const { stdout, stderr } = await runScript(`
      import { createBridge, createMemoryBackend } from '@pairlink/bridge'
      const backend = { ...createMemoryBackend(), publish: () => Promise.reject(new Error('redis down')) }
      const bridge = createBridge({ backend })
      await bridge.start()
      const connection = bridge.connect({ id: '1', remoteAddress: '127.0.0.1', send: () => true, close() {} })
      connection.receive(JSON.stringify({ topic: 't', type: 'pub', payload: '', silent: true }))
      while (bridge.metrics.counts.backendErrors === 0) await new Promise((resolve) => setImmediate(resolve))
      process.stdout.write('failed ' + bridge.metrics.counts.backendErrors + '\\n')
    `)
    // The marker line proves the failure the tests above see logged did happen; nothing else was written.
    expect(stdout).toBe('failed 1\n')
    expect(stderr).toBe('')
  })
})
