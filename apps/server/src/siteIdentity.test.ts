import { request as httpRequest } from 'node:http'
import { fileURLToPath } from 'node:url'
import { createBridge, createMemoryBackend } from '@pairlink/bridge'
import { ANVIL_ACCOUNT, ANVIL_CHAIN_ID } from '@pairlink/test-kit/anvil'
import { pino } from 'pino'
import { privateKeyToAccount } from 'viem/accounts'
import { createSiweMessage } from 'viem/siwe'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { createApi } from './api/createApi.js'
import { createAppServer } from './createAppServer.js'
import { createDatabase, type Database } from './db/createDatabase.js'
import { createChainReader } from './payments/chainReader.js'
import { createWalletList } from './registry.js'

// The site's identity is configuration: a request's Host header and Origin cannot make the server take a sign-in
// message signed for another site, or a cross-site post, as its own.
const registryFile = fileURLToPath(new URL('../data/wallets.json', import.meta.url))
const logosDir = fileURLToPath(new URL('../data/logos', import.meta.url))
const alice = privateKeyToAccount(ANVIL_ACCOUNT.privateKey)
let db: Database
let bridge: ReturnType<typeof createBridge>
const apps: ReturnType<typeof createAppServer>[] = []

async function start(publicUrl?: URL): Promise<string> {
  const app = createAppServer({
    bridge,
    // Never reached by these tests: sign-in does not read the chain.
    rpcUrl: 'http://127.0.0.1:1/',
    chainId: ANVIL_CHAIN_ID,
    registry: createWalletList({ snapshotFile: registryFile, logosDir }),
    webDir: '/nonexistent',
    walletDir: '/nonexistent',
    publicUrl,
    // Sign-in only: no payment is recorded, so the node is never asked.
    api: (site) =>
      createApi({
        db,
        chainId: ANVIL_CHAIN_ID,
        site,
        chain: createChainReader({ url: 'http://127.0.0.1:9' }),
      }),
  })
  apps.push(app)
  await new Promise<void>((resolve) => app.server.listen(0, '127.0.0.1', resolve))
  return `127.0.0.1:${(app.server.address() as { port: number }).port}`
}

beforeAll(async () => {
  db = await createDatabase()
  bridge = createBridge({ backend: createMemoryBackend(), logger: pino({ level: 'silent' }) })
  await bridge.start()
}, 60_000)

afterAll(async () => {
  for (const app of apps) await app.close()
  await bridge?.close()
  await db?.close()
})

/** A request with the headers fetch will not forge (`Host`): status, JSON body and `Set-Cookie`. */
function send(
  address: string,
  path: string,
  options: { method?: string; headers?: Record<string, string>; body?: unknown } = {},
): Promise<{ status: number; body: Record<string, unknown>; cookie: string | undefined }> {
  return new Promise((resolve, reject) => {
    const body = options.body === undefined ? undefined : JSON.stringify(options.body)
    const req = httpRequest(
      `http://${address}${path}`,
      {
        method: options.method ?? 'GET',
        headers: { ...(body ? { 'content-type': 'application/json' } : {}), ...options.headers },
      },
      (res) => {
        let text = ''
        res.on('data', (c) => {
          text += c
        })
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            body: JSON.parse(text) as Record<string, unknown>,
            cookie: res.headers['set-cookie']?.[0],
          }),
        )
      },
    )
    req.on('error', reject)
    req.end(body)
  })
}

async function signedMessage(address: string, site: { domain: string; uri: string }) {
  const { body } = await send(address, '/api/nonce')
  const message = createSiweMessage({
    address: alice.address,
    chainId: ANVIL_CHAIN_ID,
    domain: site.domain,
    uri: site.uri,
    nonce: body.nonce as string,
    version: '1',
    issuedAt: new Date(),
  })
  return { message, signature: await alice.signMessage({ message }) }
}

const sessions = async () =>
  Number((await db.query<{ n: string }>('SELECT count(*) AS n FROM sessions'))[0]?.n)

describe('site identity', () => {
  test('error: a sign-in signed for another site is refused, whatever Host and Origin the request forges', async () => {
    const ours = await start()
    const phished = await signedMessage(ours, { domain: 'evil.example', uri: 'http://evil.example/login' })
    const before = await sessions()

    // The request claims to be for evil.example, from evil.example: the CSRF check compares with the configured site.
    const forged = await send(ours, '/api/verify', {
      method: 'POST',
      headers: { host: 'evil.example', origin: 'http://evil.example' },
      body: phished,
    })
    expect(forged.status).toBe(403)
    expect(forged.body.error).toMatch(/Cross-site/)

    // With this site's Origin (a page of ours) the message is still for another domain.
    const replayed = await send(ours, '/api/verify', {
      method: 'POST',
      headers: { host: 'evil.example', origin: `http://${ours}` },
      body: phished,
    })
    expect(replayed.status).toBe(401)
    expect(replayed.body.error).toMatch(/not this site/)
    expect(replayed.cookie).toBeUndefined()

    // Marker: a message for this site, signed the same way, opens a session, so the refused ones would have shown.
    const own = await signedMessage(ours, { domain: ours, uri: `http://${ours}/` })
    const accepted = await send(ours, '/api/verify', {
      method: 'POST',
      headers: { origin: `http://${ours}` },
      body: own,
    })
    expect(accepted.status).toBe(200)
    expect(await sessions()).toBe(before + 1)
  })

  test('error: a cross-site post with a forged Host is refused (CSRF checks the configured origin)', async () => {
    const ours = await start()
    const out = await send(ours, '/api/logout', {
      method: 'POST',
      headers: { host: 'evil.example', origin: 'http://evil.example' },
      body: {},
    })
    expect(out.status).toBe(403)
    // Marker: the same post from this site's page is answered.
    const own = await send(ours, '/api/logout', {
      method: 'POST',
      headers: { origin: `http://${ours}` },
      body: {},
    })
    expect(own.status).toBe(200)
  })

  test('args: PUBLIC_URL is the site: its domain and origin sign in, the listening address does not', async () => {
    const publicUrl = new URL('https://pairlink.example')
    const address = await start(publicUrl)
    const before = await sessions()

    const local = await signedMessage(address, { domain: address, uri: `http://${address}/` })
    const refused = await send(address, '/api/verify', {
      method: 'POST',
      headers: { origin: publicUrl.origin },
      body: local,
    })
    expect(refused.status).toBe(401)
    const crossSite = await send(address, '/api/verify', {
      method: 'POST',
      headers: { origin: `http://${address}` },
      body: await signedMessage(address, { domain: 'pairlink.example', uri: 'https://pairlink.example/' }),
    })
    expect(crossSite.status).toBe(403)
    expect(await sessions()).toBe(before)

    const accepted = await send(address, '/api/verify', {
      method: 'POST',
      headers: { origin: publicUrl.origin },
      body: await signedMessage(address, { domain: 'pairlink.example', uri: 'https://pairlink.example/' }),
    })
    expect(accepted.status).toBe(200)
    // https site: the session cookie is Secure.
    expect(accepted.cookie).toMatch(/; Secure$/)
    expect(await sessions()).toBe(before + 1)
  })
})
