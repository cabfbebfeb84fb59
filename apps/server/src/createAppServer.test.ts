import { spawnSync } from 'node:child_process'
import { existsSync, mkdirSync, mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import { request as httpRequest } from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib'
import { createBridge, createMemoryBackend, createRelay } from '@pairlink/bridge'
import { type Anvil, startAnvil } from '@pairlink/test-kit/anvil'
import { pino } from 'pino'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import WebSocket from 'ws'
import { createAppServer } from './createAppServer.js'
import { createWalletList, type ListingEntry, REFERENCE_WALLET_ID } from './registry.js'

const registryFile = fileURLToPath(new URL('../data/wallets.json', import.meta.url))
const logosDir = fileURLToPath(new URL('../data/logos', import.meta.url))
let anvil: Anvil
let app: ReturnType<typeof createAppServer>
let bridge: ReturnType<typeof createBridge>
let origin: string
const dir = mkdtempSync(join(tmpdir(), 'pairlink-server-'))

beforeAll(async () => {
  mkdirSync(join(dir, 'web', 'assets'), { recursive: true })
  mkdirSync(join(dir, 'wallet'), { recursive: true })
  writeFileSync(join(dir, 'web', 'index.html'), '<title>web</title>')
  writeFileSync(join(dir, 'web', 'assets', 'app-abc123.js'), 'console.log(1)')
  writeFileSync(join(dir, 'wallet', 'index.html'), '<title>wallet</title>')
  writeFileSync(join(dir, 'secret.txt'), 'outside')
  anvil = await startAnvil()
  bridge = createBridge({ backend: createMemoryBackend(), logger: pino({ level: 'silent' }) })
  await bridge.start()
  app = createAppServer({
    bridge,
    rpcUrl: anvil.url,
    chainId: anvil.chainId,
    registry: createWalletList({ snapshotFile: registryFile, logosDir }),
    webDir: join(dir, 'web'),
    walletDir: join(dir, 'wallet'),
    maxRpcBodyBytes: 4096,
  })
  await new Promise<void>((resolve) => app.server.listen(0, '127.0.0.1', resolve))
  const address = app.server.address()
  origin = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`
})

afterAll(async () => {
  await app?.close()
  await bridge?.close()
  await anvil?.stop()
})

describe('createAppServer', () => {
  test('default: the web app at / and client-side routes fall back to its index.html', async () => {
    for (const path of ['/', '/account', '/index.html']) {
      const response = await fetch(`${origin}${path}`)
      expect(response.status).toBe(200)
      expect(await response.text()).toBe('<title>web</title>')
    }
    const asset = await fetch(`${origin}/assets/app-abc123.js`)
    expect(asset.headers.get('content-type')).toContain('text/javascript')
    expect(asset.headers.get('cache-control')).toContain('immutable')
  })

  test('behavior: a missing hashed asset is a 404, never the page (a tab from before a deploy loading a chunk)', async () => {
    for (const path of ['/assets/Connected-gone123.js', '/wallet/assets/index-gone456.js']) {
      const response = await fetch(`${origin}${path}`)
      expect(response.status, path).toBe(404)
      expect(response.headers.get('cache-control'), path).toBe('no-store')
      expect(await response.text(), path).not.toContain('<title>')
    }
  })

  test('default: the reference wallet at /wallet, including its deep link /wallet/wc', async () => {
    for (const path of ['/wallet', '/wallet/', '/wallet/wc?uri=wc%3Aabc%401']) {
      expect(await (await fetch(`${origin}${path}`)).text()).toBe('<title>wallet</title>')
    }
  })

  test('behavior: paths never escape the app folder', async () => {
    // The file each path aims at is there, one level above the app folders.
    expect(readFileSync(join(dir, 'secret.txt'), 'utf8')).toBe('outside')
    const paths: [path: string, app: string][] = [
      ['/../secret.txt', '<title>web</title>'],
      ['/%2e%2e/secret.txt', '<title>web</title>'],
      ['/..%2fsecret.txt', '<title>web</title>'],
      ['/wallet/../../secret.txt', '<title>web</title>'],
      ['/wallet/..%2f..%2fsecret.txt', '<title>wallet</title>'],
    ]
    for (const [path, app] of paths) {
      // Answered, and with the app's own page (the fallback for a path it has no file for), not the file.
      expect(await rawGet(path), path).toBe(app)
    }
  })

  test('default: the registry lists the reference wallet first, linked to this server, readable from any site', async () => {
    const response = await fetch(`${origin}/registry/wallets.json`, {
      headers: { origin: 'https://dapp.example' },
    })
    expect(response.headers.get('access-control-allow-origin')).toBe('*')
    const registry = (await response.json()) as { count: number; listings: Record<string, ListingEntry> }
    const ids = Object.keys(registry.listings)
    expect(ids[0]).toBe(REFERENCE_WALLET_ID)
    // Without a project id only the wallets that can reach this relay: Pairlink Wallet alone here.
    expect(registry.count).toBe(1)
    expect(ids).toHaveLength(1)
    expect(registry.listings[REFERENCE_WALLET_ID]!.mobile.universal).toBe(`${origin}/wallet`)
  })

  test('default: the reference wallet has a logo this server serves to any site; other names are 404s', async () => {
    const registry = (await (await fetch(`${origin}/registry/wallets.json`)).json()) as {
      count: number
      listings: Record<string, ListingEntry>
    }
    const url = registry.listings[REFERENCE_WALLET_ID]!.image_url.sm
    expect(url).toBe(`${origin}/registry/logos/${REFERENCE_WALLET_ID}.svg`)
    const response = await fetch(url, { headers: { origin: 'https://dapp.example' } })
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toBe('image/svg+xml')
    expect(response.headers.get('access-control-allow-origin')).toBe('*')
    expect(response.headers.get('content-security-policy')).toBe(
      "default-src 'none'; style-src 'unsafe-inline'; sandbox",
    )
    expect(await response.text()).toContain('<svg')
    for (const name of ['..%2Fwallets.json', 'missing.svg', 'wallets.json'])
      expect((await fetch(`${origin}/registry/logos/${name}`)).status).toBe(404)
  })

  test('default: /api/config tells the apps where the bridge, the node and the registry are', async () => {
    expect(await (await fetch(`${origin}/api/config`)).json()).toEqual({
      bridge: origin,
      rpcUrl: `${origin}/rpc`,
      chainId: 31337,
      registryUrl: `${origin}/registry/wallets.json`,
    })
  })

  test('args: bridgeUrl (BRIDGE_URL) points the apps at an external bridge', async () => {
    const external = createAppServer({
      bridge,
      rpcUrl: anvil.url,
      chainId: anvil.chainId,
      bridgeUrl: 'https://bridge.example.org',
      registry: createWalletList({ snapshotFile: registryFile, logosDir }),
      webDir: join(dir, 'web'),
      walletDir: join(dir, 'wallet'),
    })
    await new Promise<void>((resolve) => external.server.listen(0, '127.0.0.1', resolve))
    const url = `http://127.0.0.1:${(external.server.address() as { port: number }).port}`
    try {
      const config = (await (await fetch(`${url}/api/config`)).json()) as Record<string, unknown>
      expect(config).toMatchObject({ bridge: 'https://bridge.example.org', rpcUrl: `${url}/rpc` })
    } finally {
      await external.close()
    }
  })

  test('args: relay — /api/config gives the v2 relay URL (this site, ws:) and the project id', async () => {
    const withRelay = createAppServer({
      bridge,
      relay: createRelay(),
      relayProjectId: 'pairlink-web',
      rpcUrl: anvil.url,
      chainId: anvil.chainId,
      registry: createWalletList({ snapshotFile: registryFile, logosDir }),
      webDir: join(dir, 'web'),
      walletDir: join(dir, 'wallet'),
      publicUrl: new URL('https://pairlink.example'),
    })
    await new Promise<void>((resolve) => withRelay.server.listen(0, '127.0.0.1', resolve))
    const url = `http://127.0.0.1:${(withRelay.server.address() as { port: number }).port}`
    try {
      expect(await getJson(`${url}/api/config`, { host: 'evil.example' })).toMatchObject({
        bridge: 'https://pairlink.example',
        relayUrl: 'wss://pairlink.example',
        projectId: 'pairlink-web',
        relayNetwork: 'pairlink',
      })
    } finally {
      await withRelay.close()
    }
  })

  test('behavior: the URLs handed out are the configured site, whatever Host the request names', async () => {
    const configured = createAppServer({
      bridge,
      rpcUrl: anvil.url,
      chainId: anvil.chainId,
      registry: createWalletList({ snapshotFile: registryFile, logosDir }),
      webDir: join(dir, 'web'),
      walletDir: join(dir, 'wallet'),
      publicUrl: new URL('https://pairlink.example'),
      trustProxy: true,
    })
    await new Promise<void>((resolve) => configured.server.listen(0, '127.0.0.1', resolve))
    const url = `http://127.0.0.1:${(configured.server.address() as { port: number }).port}`
    try {
      for (const headers of [
        { host: 'evil.example' },
        { host: 'evil.example', 'x-forwarded-proto': 'http' },
        {},
      ]) {
        const config = (await getJson(`${url}/api/config`, headers)) as Record<string, unknown>
        expect(config).toMatchObject({
          bridge: 'https://pairlink.example',
          rpcUrl: 'https://pairlink.example/rpc',
        })
        const registry = (await getJson(`${url}/registry/wallets.json`, headers)) as {
          count: number
          listings: Record<string, ListingEntry>
        }
        expect(registry.listings[REFERENCE_WALLET_ID]!.mobile.universal).toBe(
          'https://pairlink.example/wallet',
        )
      }
    } finally {
      await configured.close()
    }
  })

  test('behavior: without PUBLIC_URL a forged Host falls back to the listening address; a trusted proxy adds https, never a host', async () => {
    const headers = { 'x-forwarded-proto': 'https', host: 'pairlink.example' }
    // Not trusted: neither the scheme nor the host is believed.
    expect(((await getJson(`${origin}/api/config`, headers)) as { bridge: string }).bridge).toBe(origin)
    // `localhost` on the bound port is the same loopback listener, so it is one of the site's names.
    const port = new URL(origin).port
    expect(
      ((await getJson(`${origin}/api/config`, { host: `localhost:${port}` })) as { bridge: string }).bridge,
    ).toBe(`http://localhost:${port}`)
    const proxied = createAppServer({
      bridge,
      rpcUrl: anvil.url,
      chainId: anvil.chainId,
      registry: createWalletList({ snapshotFile: registryFile, logosDir }),
      webDir: join(dir, 'web'),
      walletDir: join(dir, 'wallet'),
      trustProxy: true,
    })
    await new Promise<void>((resolve) => proxied.server.listen(0, '127.0.0.1', resolve))
    const host = `127.0.0.1:${(proxied.server.address() as { port: number }).port}`
    try {
      const config = (await getJson(`http://${host}/api/config`, headers)) as Record<string, unknown>
      expect(config).toMatchObject({ bridge: `https://${host}`, rpcUrl: `https://${host}/rpc` })
    } finally {
      await proxied.close()
    }
  })

  test('default: secure headers on every answer', async () => {
    for (const path of ['/', '/api/config', '/registry/wallets.json']) {
      const response = await fetch(`${origin}${path}`)
      expect(response.headers.get('x-content-type-options'), path).toBe('nosniff')
      expect(response.headers.get('x-frame-options'), path).toBe('DENY')
      expect(response.headers.get('referrer-policy'), path).toBe('no-referrer')
    }
  })

  test('behavior: a precompressed variant is served to a browser that takes it, the file itself otherwise', async () => {
    const source = 'console.log("precompressed")'.repeat(50)
    writeFileSync(join(dir, 'web', 'assets', 'big-def456.js'), source)
    writeFileSync(join(dir, 'web', 'assets', 'big-def456.js.br'), brotliCompressSync(source))
    writeFileSync(join(dir, 'web', 'assets', 'big-def456.js.gz'), gzipSync(source))
    const br = await rawResponse('/assets/big-def456.js', { 'accept-encoding': 'br, gzip' })
    expect(br.headers['content-encoding']).toBe('br')
    expect(br.headers['content-type']).toContain('text/javascript')
    expect(br.headers['cache-control']).toContain('immutable')
    expect(brotliDecompressSync(br.body).toString()).toBe(source)
    const gz = await rawResponse('/assets/big-def456.js', { 'accept-encoding': 'gzip' })
    expect(gz.headers['content-encoding']).toBe('gzip')
    expect(gunzipSync(gz.body).toString()).toBe(source)
    const plain = await rawResponse('/assets/big-def456.js', {})
    expect(plain.headers['content-encoding']).toBeUndefined()
    expect(plain.body.toString()).toBe(source)
  })

  test('behavior: the build writes .br and .gz copies of compressible files, and keeps fresh ones', () => {
    const built = mkdtempSync(join(tmpdir(), 'pairlink-precompress-'))
    mkdirSync(join(built, 'assets'))
    const source = 'export const x = 1;\n'.repeat(200)
    writeFileSync(join(built, 'assets', 'app.js'), source)
    writeFileSync(join(built, 'tiny.css'), 'a{}')
    writeFileSync(join(built, 'icon.png'), Buffer.alloc(4096))
    const script = fileURLToPath(new URL('../scripts/precompress.mjs', import.meta.url))
    expect(spawnSync(process.execPath, [script, built]).status).toBe(0)
    expect(brotliDecompressSync(readFileSync(join(built, 'assets', 'app.js.br'))).toString()).toBe(source)
    expect(gunzipSync(readFileSync(join(built, 'assets', 'app.js.gz'))).toString()).toBe(source)
    // Too small to gain, or not compressible: no copy.
    expect(existsSync(join(built, 'tiny.css.br'))).toBe(false)
    expect(existsSync(join(built, 'icon.png.br'))).toBe(false)
    // A second run keeps the fresh copies as they are.
    const first = statSync(join(built, 'assets', 'app.js.br')).mtimeMs
    expect(spawnSync(process.execPath, [script, built]).status).toBe(0)
    expect(statSync(join(built, 'assets', 'app.js.br')).mtimeMs).toBe(first)
  })

  test('default: the bridge answers on the same port, HTTP and WebSocket on any path', async () => {
    expect(await (await fetch(`${origin}/hello`)).text()).toMatch(/^Hello World, this is/)
    expect((await fetch(`${origin}/health`)).status).toBe(204)
    const topic = 'a83b1ea0-2d97-4026-8bf1-56d7ad0f80a7'
    const frame = JSON.stringify({
      topic,
      type: 'pub',
      payload: '{"data":"00","hmac":"00","iv":"00"}',
      silent: true,
    })
    const publisher = await open(`${origin.replace('http', 'ws')}?env=browser&host=x&protocol=wc&version=1`)
    publisher.send(frame)
    const subscriber = await open(`${origin.replace('http', 'ws')}/any/path`)
    const received = new Promise<string>((resolve) =>
      subscriber.once('message', (data) => resolve(String(data))),
    )
    subscriber.send(JSON.stringify({ topic, type: 'sub', payload: '', silent: true }))
    expect(await received).toBe(frame)
    publisher.close()
    subscriber.close()
  })

  test('default: /rpc forwards JSON-RPC to the node', async () => {
    const response = await fetch(`${origin}/rpc`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'eth_chainId', params: [] }),
    })
    expect(await response.json()).toEqual({ jsonrpc: '2.0', id: 7, result: '0x7a69' })
  })

  test('error: /rpc refuses oversized bodies and other methods', async () => {
    const big = await fetch(`${origin}/rpc`, { method: 'POST', body: 'x'.repeat(10_000) })
    expect(big.status).toBe(413)
    expect((await fetch(`${origin}/rpc`)).status).toBe(405)
  })

  test('error: unknown API routes are a clear 404', async () => {
    const response = await fetch(`${origin}/api/nope`)
    expect(response.status).toBe(404)
    expect(await response.json()).toEqual({ error: 'No API route /api/nope' })
  })
})

function open(url: string): Promise<WebSocket> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url)
    ws.once('open', () => resolve(ws))
    ws.once('error', reject)
  })
}

/** A GET with the path sent as written (fetch would normalise `..` away). */
function rawGet(path: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(`${origin}/`, { path }, (res) => {
      let body = ''
      res.on('data', (c) => {
        body += c
      })
      res.on('end', () => resolve(body))
    })
    req.on('error', reject)
    req.end()
  })
}

/** A GET whose body is returned as bytes, undecoded (fetch would decompress it). */
function rawResponse(
  path: string,
  headers: Record<string, string>,
): Promise<{ headers: Record<string, string | string[] | undefined>; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(`${origin}${path}`, { headers }, (res) => {
      const chunks: Buffer[] = []
      res.on('data', (c: Buffer) => chunks.push(c))
      res.on('end', () => resolve({ headers: res.headers, body: Buffer.concat(chunks) }))
    })
    req.on('error', reject)
    req.end()
  })
}

/** A GET with headers fetch will not send (`Host`), as a proxy in front would. */
function getJson(url: string, headers: Record<string, string>): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { headers }, (res) => {
      let body = ''
      res.on('data', (c) => {
        body += c
      })
      res.on('end', () => resolve(JSON.parse(body)))
    })
    req.on('error', reject)
    req.end()
  })
}
