import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { createBridge, createMemoryBackend, createRelay } from '@pairlink/bridge'
import { signRelayJwt } from '@pairlink/protocol/v2'
import { pino } from 'pino'
import { beforeAll, describe, expect, onTestFinished, test } from 'vitest'
import { relayAttempt } from '../test/relayAttempt.js'
import { type CreateAppServerParameters, createAppServer } from './createAppServer.js'
import { createWalletList, REFERENCE_WALLET_ID } from './registry.js'

// The server's policy for pages and the relay it hands them: a real app server on a free port, real sockets.
const registryFile = fileURLToPath(new URL('../data/wallets.json', import.meta.url))
const logosDir = fileURLToPath(new URL('../data/logos', import.meta.url))
const PROJECT_ID = '0123456789abcdef0123456789abcdef'
const dir = mkdtempSync(join(tmpdir(), 'pairlink-csp-'))

beforeAll(() => {
  mkdirSync(join(dir, 'web'), { recursive: true })
  mkdirSync(join(dir, 'wallet'), { recursive: true })
  writeFileSync(join(dir, 'web', 'index.html'), '<title>web</title>')
  writeFileSync(join(dir, 'wallet', 'index.html'), '<title>wallet</title>')
})

/** An app server with a v2 relay on 127.0.0.1, stopped after the test; its origin. */
async function serve(parameters: Partial<CreateAppServerParameters> = {}): Promise<string> {
  // A bridge each: its metrics registry takes one relay.
  const bridge = createBridge({ backend: createMemoryBackend(), logger: pino({ level: 'silent' }) })
  await bridge.start()
  onTestFinished(() => bridge.close())
  const app = createAppServer({
    bridge,
    relay: createRelay(),
    // Nothing here reads the chain.
    rpcUrl: 'http://127.0.0.1:1',
    chainId: 31337,
    registry: createWalletList({ snapshotFile: registryFile, logosDir }),
    webDir: join(dir, 'web'),
    walletDir: join(dir, 'wallet'),
    ...parameters,
  })
  await new Promise<void>((resolve) => app.server.listen(0, '127.0.0.1', resolve))
  onTestFinished(() => app.close())
  return `http://127.0.0.1:${(app.server.address() as { port: number }).port}`
}

const policy = (connect: string) =>
  "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; " +
  `connect-src ${connect}; object-src 'none'; base-uri 'self'; form-action 'self'; frame-ancestors 'none'`

describe('Content-Security-Policy', () => {
  test('default: pages, API and registry may reach this site and its relay only', async () => {
    const origin = await serve()
    const ws = origin.replace('http', 'ws')
    for (const path of ['/', '/account', '/wallet', '/wallet/wc', '/api/config', '/registry/wallets.json']) {
      const response = await fetch(`${origin}${path}`)
      expect(response.headers.get('content-security-policy'), path).toBe(policy(`'self' ${ws}`))
      expect(response.headers.get('x-frame-options'), path).toBe('DENY')
    }
  })

  test('args: walletConnect — the configured relay is the one other origin the pages may reach', async () => {
    const origin = await serve({
      walletConnect: { projectId: PROJECT_ID, relayUrl: 'wss://relay.walletconnect.org' },
    })
    for (const path of ['/', '/wallet']) {
      const response = await fetch(`${origin}${path}`)
      expect(response.headers.get('content-security-policy'), path).toBe(
        policy(`'self' ${origin.replace('http', 'ws')} wss://relay.walletconnect.org`),
      )
    }
    // Another relay (a stand-in on a port) is named by its origin, never its path or query.
    const standIn = await serve({
      walletConnect: { projectId: PROJECT_ID, relayUrl: 'ws://127.0.0.1:9010/relay?x=1' },
    })
    expect((await fetch(standIn)).headers.get('content-security-policy')).toContain(
      ` ws://127.0.0.1:9010; object-src`,
    )
  })

  test('args: bridgeUrl — an external v1 bridge is reachable by HTTP and WebSocket', async () => {
    const origin = await serve({ bridgeUrl: 'https://bridge.example.org' })
    expect((await fetch(origin)).headers.get('content-security-policy')).toBe(
      policy(`'self' ${origin.replace('http', 'ws')} https://bridge.example.org wss://bridge.example.org`),
    )
  })

  test('behavior: a logo keeps its own stricter policy', async () => {
    const origin = await serve()
    const response = await fetch(`${origin}/registry/logos/${REFERENCE_WALLET_ID}.svg`)
    expect(response.status).toBe(200)
    expect(response.headers.get('content-security-policy')).toBe(
      "default-src 'none'; style-src 'unsafe-inline'; sandbox",
    )
  })
})

describe('/api/config', () => {
  test('default: the apps pair through this server\'s relay ("pairlink"), with RELAY_PROJECT_IDS\' first', async () => {
    const origin = await serve({ relayProjectId: 'kiosk-1' })
    expect(await (await fetch(`${origin}/api/config`)).json()).toEqual({
      bridge: origin,
      rpcUrl: `${origin}/rpc`,
      chainId: 31337,
      registryUrl: `${origin}/registry/wallets.json`,
      relayUrl: origin.replace('http', 'ws'),
      projectId: 'kiosk-1',
      relayNetwork: 'pairlink',
    })
    const bare = await serve()
    expect(await (await fetch(`${bare}/api/config`)).json()).not.toHaveProperty('projectId')
  })

  test("args: walletConnect — the apps get WalletConnect's relay and project id; this server's relay still runs", async () => {
    const origin = await serve({
      relayProjectId: 'kiosk-1',
      walletConnect: { projectId: PROJECT_ID, relayUrl: 'wss://relay.walletconnect.org' },
    })
    expect(await (await fetch(`${origin}/api/config`)).json()).toEqual({
      bridge: origin,
      rpcUrl: `${origin}/rpc`,
      chainId: 31337,
      registryUrl: `${origin}/registry/wallets.json`,
      relayUrl: 'wss://relay.walletconnect.org',
      projectId: PROJECT_ID,
      relayNetwork: 'walletconnect',
    })
    // The published SDKs and in-house wallets given this server's URL still pair here.
    const ws = origin.replace('http', 'ws')
    const seed = globalThis.crypto.getRandomValues(new Uint8Array(32))
    const auth = await signRelayJwt({ seed, aud: ws })
    expect(await relayAttempt(`${ws}/?auth=${auth}&projectId=kiosk-1`)).toBe('open')
  })
})
