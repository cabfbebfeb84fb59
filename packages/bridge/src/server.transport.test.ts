// What the server holds for clients that stop reading or trickle their requests: bounded per socket and per address.
import { connect as connectTcp, type Socket } from 'node:net'
import { describe, expect, test } from 'vitest'
import { WebSocket } from 'ws'
import type { TestClient } from '../test/client.js'
import { bridgeFixtures, useCleanups } from '../test/fixtures.js'

const cleanups = useCleanups()
const { bridge, client } = bridgeFixtures(cleanups)
/** Stops reading: the kernel's buffers fill, then the server's send buffer for this socket grows. */
function stopReading(c: TestClient) {
  ;(c.ws as unknown as { _socket: { pause(): void } })._socket.pause()
}
const open = (c: TestClient) => c.ws.readyState === WebSocket.OPEN

describe('slow readers', () => {
  // A reader subscribed to `t` and a writer, on a bridge that drops a socket once 64 KiB wait for it.
  async function readerAndWriter() {
    const { url } = await bridge({
      maxBufferedBytes: 64 * 1024,
      maxMessagesPerSecond: 0,
      maxReadBytesPerSecondPerIp: 0,
      maxFrameBytes: 1 << 20,
    })
    const reader = await client(url)
    const writer = await client(url)
    reader.sub('t')
    await reader.sync()
    return { reader, writer }
  }

  test('error: one frame larger than maxBufferedBytes is refused, however empty the send buffer', async () => {
    const { reader, writer } = await readerAndWriter()
    writer.pub('t', 'x'.repeat(100 * 1024))
    const outcome = await Promise.race([
      reader.next(5_000).then(() => 'delivered'),
      reader.closed.then(({ code }) => `closed ${code}`),
    ])
    expect(outcome).toBe('closed 1006')
    // The publisher and the server are fine.
    await writer.sync()
  })

  test('error: a socket that stops reading is dropped once maxBufferedBytes wait for it', async () => {
    const { reader, writer } = await readerAndWriter()
    stopReading(reader)
    // Each frame alone fits; together they pass the bound.
    const payload = 'x'.repeat(60 * 1024)
    for (let i = 0; i < 1_000 && open(reader); i++) {
      writer.pub('t', payload)
      // Let the server write what it has relayed so far.
      if (i % 10 === 9) await writer.sync()
    }
    ;(reader.ws as unknown as { _socket: { resume(): void } })._socket.resume()
    expect((await reader.closed).code).toBe(1006)
  })

  test('error: the unsent bytes of one address stay under maxBufferedBytesPerIp; other addresses unaffected', async () => {
    const perIp = 2 << 20
    const started = await bridge({
      maxBufferedBytes: 1 << 20,
      maxBufferedBytesPerIp: perIp,
      maxMessagesPerSecond: 0,
      maxMessagesPerSecondPerIp: 0,
      maxReadBytesPerSecondPerIp: 0,
      maxFrameBytes: 1 << 20,
    })
    const { url, server } = started
    // The server's side of every TCP connection, by the client's address: what it still has to write is its
    // `writableLength` (the bulk of `ws.bufferedAmount`).
    const sockets: Socket[] = []
    server.on('connection', (socket) => sockets.push(socket))
    const live = (address: string) =>
      sockets.filter((socket) => !socket.destroyed && socket.remoteAddress === address)
    const unsent = (address: string) => live(address).reduce((sum, socket) => sum + socket.writableLength, 0)

    const slow = await Promise.all(
      Array.from({ length: 6 }, () => client(url, { localAddress: '127.0.0.2' })),
    )
    // A reader keeping up behind the same address, and one of another address.
    const neighbour = await client(url, { localAddress: '127.0.0.2' })
    const other = await client(url, { localAddress: '127.0.0.3' })
    const writer = await client(url)
    for (const c of [...slow, neighbour, other]) {
      c.sub('t')
      await c.sync()
    }
    for (const c of slow) stopReading(c)

    const payload = 'x'.repeat(64 * 1024)
    let most = 0
    let sent = 0
    // Far more than the kernel's buffers and six sockets' own bounds take, unless the address's bound cuts them.
    // The slow clients do not see their sockets close (they read nothing, not even the end): the server's side does.
    while (live('127.0.0.2').length > 1 && sent < 800) {
      writer.pub('t', payload)
      if (++sent % 8 === 0) {
        await writer.sync()
        most = Math.max(most, unsent('127.0.0.2'))
      }
    }
    expect(most).toBeLessThanOrEqual(perIp)
    for (const c of slow) (c.ws as unknown as { _socket: { resume(): void } })._socket.resume()
    expect((await Promise.all(slow.map((c) => c.closed))).map(({ code }) => code)).toEqual(
      Array(6).fill(1006),
    )
    expect(open(neighbour) && open(other) && open(writer)).toBe(true)
    await Promise.all([neighbour.sync(), other.sync()])
    // Each received every frame, in order, as it was published.
    expect(neighbour.received.length).toBe(sent)
    expect(other.received.length).toBe(sent)
  })
})

describe('fast senders', () => {
  test('behavior: what one address sends is read at maxReadBytesPerSecondPerIp; another address is served meanwhile; nothing is lost', async () => {
    const { url, counts } = await bridge({
      maxReadBytesPerSecondPerIp: 64 * 1024,
      readBurstBytesPerIp: 16 * 1024,
      maxMessagesPerSecond: 0,
      maxMessagesPerSecondPerIp: 0,
    })
    const reader = await client(url, { localAddress: '127.0.0.4' })
    const flooder = await client(url, { localAddress: '127.0.0.2' })
    const bystander = await client(url, { localAddress: '127.0.0.3' })
    reader.sub('flood')
    await reader.sync()
    // 8 frames of 16 KiB at once: the first is within the burst, the rest are read at 64 KiB/s (about 2 s).
    const payloads = Array.from({ length: 8 }, (_, i) => `${i}:${'x'.repeat(16 * 1024)}`)
    for (const payload of payloads) flooder.pub('flood', payload)
    // A round trip of another address is not held behind the flood: it completes while the flood is still unread.
    await bystander.sync()
    expect(reader.received.length).toBeLessThan(payloads.length)
    expect(counts.readPauses).toBeGreaterThan(0)
    // The flood is read in the end, all of it, in order.
    const received = await Promise.all(payloads.map(() => reader.next(10_000)))
    expect(received.map((frame) => JSON.parse(frame).payload)).toEqual(payloads)
  })
})

/**
 * Sends `head` (a request line and headers promising a body) to `url`, then trickles one byte of body every few
 * milliseconds; resolves with what the server wrote once it closes the connection.
 */
function trickle(url: string, head: string): Promise<string> {
  const { hostname, port } = new URL(url)
  const socket = connectTcp(Number(port), hostname)
  socket.write(head)
  const drip = setInterval(() => socket.write('x'), 20)
  let answer = ''
  socket.on('data', (chunk: Buffer) => {
    answer += chunk
  })
  socket.on('error', () => {})
  return new Promise((resolve) =>
    socket.once('close', () => {
      clearInterval(drip)
      resolve(answer)
    }),
  )
}

describe('slow requests', () => {
  // Fails by the test's timeout if the bound is Node's own (30 s here, 5 minutes by default).
  test('error: a request whose body trickles in is answered 408 and closed after requestTimeoutMs', {
    timeout: 10_000,
  }, async () => {
    const { url } = await bridge({ requestTimeoutMs: 200 })
    const head = 'POST /subscribe HTTP/1.1\r\nHost: bridge\r\nContent-Length: 10000\r\n\r\n{'
    expect(await trickle(url, head)).toMatch(/^HTTP\/1\.1 408 /)
    // The server still answers others.
    expect((await fetch(`${url}/health`)).status).toBe(204)
  })
})
