// The product server's port as the outside reaches it: v2 tokens must name this site, requests must arrive in time.
import { connect } from 'node:net'
import { fileURLToPath } from 'node:url'
import { createBridge, createMemoryBackend, createRelay } from '@pairlink/bridge'
import { RELAY_REFUSAL_CLOSE_CODE, signRelayJwt } from '@pairlink/protocol/v2'
import { pino } from 'pino'
import { afterEach, describe, expect, test } from 'vitest'
import WebSocket from 'ws'
import { type CreateAppServerParameters, createAppServer } from './createAppServer.js'
import { createWalletList } from './registry.js'

const registryFile = fileURLToPath(new URL('../data/wallets.json', import.meta.url))
const logosDir = fileURLToPath(new URL('../data/logos', import.meta.url))
const cleanups: (() => Promise<unknown>)[] = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
})

/** A product server on a free loopback port, its relay refusing as main.ts has it (closed with 3000). */
async function start(parameters: Partial<CreateAppServerParameters> = {}) {
  const logger = pino({ level: 'silent' })
  const bridge = createBridge({ backend: createMemoryBackend(), logger })
  const relay = createRelay({ logger, refusal: 'close' })
  await Promise.all([bridge.start(), relay.start()])
  const app = createAppServer({
    bridge,
    relay,
    // Never reached: the requests here never arrive whole.
    rpcUrl: 'http://127.0.0.1:1',
    chainId: 31337,
    registry: createWalletList({ snapshotFile: registryFile, logosDir }),
    webDir: '/nonexistent',
    walletDir: '/nonexistent',
    ...parameters,
  })
  await new Promise<void>((resolve) => app.server.listen(0, '127.0.0.1', resolve))
  cleanups.push(async () => {
    await app.close()
    await Promise.all([relay.close(), bridge.close()])
  })
  const { port } = app.server.address() as { port: number }
  return { port, url: `http://127.0.0.1:${port}` }
}

/** A v2 upgrade with a token naming `aud`, sent with `host` as its `Host`: 'open', or the close code and reason. */
async function relayAttempt(port: number, aud: string, host?: string) {
  const seed = globalThis.crypto.getRandomValues(new Uint8Array(32))
  const auth = await signRelayJwt({ seed, aud })
  const ws = new WebSocket(`ws://127.0.0.1:${port}/?auth=${auth}`, host ? { headers: { host } } : {})
  cleanups.push(async () => ws.terminate())
  return new Promise<string | { code: number; reason: string }>((resolve, reject) => {
    // A refusal closes right after the upgrade: its close frame comes before the pong of a ping sent on open.
    ws.once('open', () => ws.ping())
    ws.once('pong', () => resolve('open'))
    ws.once('close', (code, reason) => resolve({ code, reason: String(reason) }))
    ws.once('error', reject)
  })
}

describe('relay audience', () => {
  const refused = {
    code: RELAY_REFUSAL_CLOSE_CODE,
    reason: 'Unauthorized: auth token audience is not this relay',
  }

  test('error: without PUBLIC_URL a token must name the listening address, whatever Host the request names', async () => {
    const { port } = await start()
    expect(await relayAttempt(port, 'ws://other.example', 'other.example')).toEqual(refused)
    expect(await relayAttempt(port, `ws://evil.example:${port}`, `evil.example:${port}`)).toEqual(refused)
    // The site's own hosts, as /api/config hands them out (in ws: or, through a TLS proxy, wss:).
    for (const aud of [`ws://127.0.0.1:${port}`, `ws://localhost:${port}`, `wss://127.0.0.1:${port}`])
      expect(await relayAttempt(port, aud, 'other.example')).toBe('open')
  })

  test('error: with PUBLIC_URL a token must name it', async () => {
    const { port } = await start({ publicUrl: new URL('https://pairlink.example') })
    expect(await relayAttempt(port, 'wss://pairlink.example')).toBe('open')
    expect(await relayAttempt(port, `ws://127.0.0.1:${port}`)).toEqual(refused)
    expect(await relayAttempt(port, 'wss://other.example', 'other.example')).toEqual(refused)
  })
})

describe('slow requests', () => {
  // Fails by the test's timeout if the bound is Node's own (5 minutes).
  test('error: a /rpc body that trickles in is answered 408 and closed after requestTimeoutMs', {
    timeout: 10_000,
  }, async () => {
    const { port } = await start({ requestTimeoutMs: 200 })
    const socket = connect(port, '127.0.0.1')
    socket.write(
      'POST /rpc HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 4000\r\n\r\n[',
    )
    const drip = setInterval(() => socket.write(' '), 20)
    let answer = ''
    socket.on('data', (chunk: Buffer) => {
      answer += chunk
    })
    socket.on('error', () => {})
    await new Promise((resolve) => socket.once('close', resolve))
    clearInterval(drip)
    expect(answer).toMatch(/^HTTP\/1\.1 408 /)
  })
})
