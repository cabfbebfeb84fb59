import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { brotliDecompressSync, gunzipSync } from 'node:zlib'
import { getRequestListener } from '@hono/node-server'
import { Hono } from 'hono'
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest'
import type { AppEnv } from '../api/http.js'
import { type CreateWalletListParameters, createWalletList, type WalletList } from './createWalletList.js'
import { REFERENCE_WALLET_ID } from './logos.js'
import { serveWalletList } from './serveWalletList.js'
import type { ListingEntry, WcWallet } from './toListing.js'

const snapshotFile = fileURLToPath(new URL('../../data/wallets.json', import.meta.url))
const logosDir = fileURLToPath(new URL('../../data/logos', import.meta.url))
const PROJECT_ID = '0123456789abcdef0123456789abcdef'
const DAY = 24 * 60 * 60_000
type Doc = { count: number; listings: Record<string, ListingEntry> }

/** WalletConnect's explorer at its seam: `/getWallets` pages and `/getWalletImage/:id`, answers set per test. */
function startExplorer() {
  const state = { total: 150, failing: false, listCalls: 0, imageCalls: 0, queries: [] as URLSearchParams[] }
  const wallet = (i: number): WcWallet => ({
    id: `w${i}`,
    name: `Wallet ${i}`,
    rdns: `com.example.w${i}`,
    homepage: `https://w${i}.example`,
    image_id: `img-${i}`,
    mobile_link: i % 2 ? `https://link.w${i}.example` : `w${i}://`,
    desktop_link: null,
    webapp_link: null,
    app_store: `https://apps.apple.com/app/id${i}`,
    play_store: null,
    chrome_store: null,
    chains: ['eip155:1'],
  })
  const server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://x')
    state.queries.push(url.searchParams)
    if (state.failing) return response.writeHead(500).end('down')
    if (url.pathname === '/getWallets') {
      state.listCalls++
      const page = Number(url.searchParams.get('page'))
      const entries = Number(url.searchParams.get('entries'))
      const data = Array.from({ length: state.total }, (_, i) => wallet(i)).slice(
        (page - 1) * entries,
        page * entries,
      )
      response.writeHead(200, { 'content-type': 'application/json' })
      return response.end(JSON.stringify({ count: state.total, data }))
    }
    if (url.pathname.startsWith('/getWalletImage/')) {
      state.imageCalls++
      response.writeHead(200, { 'content-type': 'image/png' })
      return response.end(Buffer.from(`png of ${url.pathname.slice(16)}`))
    }
    response.writeHead(404).end()
  })
  return { server, state }
}

const explorer = startExplorer()
let explorerUrl = ''
const servers: Server[] = []
beforeAll(async () => {
  await new Promise<void>((resolve) => explorer.server.listen(0, '127.0.0.1', resolve))
  explorerUrl = `http://127.0.0.1:${(explorer.server.address() as AddressInfo).port}`
})
afterEach(async () => {
  Object.assign(explorer.state, { total: 150, failing: false, listCalls: 0, imageCalls: 0, queries: [] })
  await Promise.all(servers.splice(0).map((s) => new Promise((resolve) => s.close(resolve))))
})
afterAll(() => new Promise((resolve) => explorer.server.close(resolve)))

function list(overrides: Partial<CreateWalletListParameters> = {}) {
  let time = 1_000_000
  const errors: string[] = []
  const walletList = createWalletList({
    snapshotFile,
    logosDir,
    explorer: { explorerUrl, projectId: PROJECT_ID, sdkVersion: '0.1.0' },
    now: () => time,
    onError: (message) => errors.push(message),
    ...overrides,
  })
  return { walletList, errors, advance: (ms: number) => (time += ms) }
}

/** Serves the list over real HTTP, as createAppServer does. */
async function serve(walletList: WalletList): Promise<string> {
  const app = new Hono<AppEnv>()
  serveWalletList(app, walletList, (c) => new URL(c.req.url).origin)
  const server = createServer(getRequestListener(app.fetch))
  servers.push(server)
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`
}
const parse = (walletList: WalletList, origin = 'https://pairlink.example') =>
  JSON.parse(walletList.document(origin).json.toString()) as Doc

describe('the bundled snapshot', () => {
  const snapshot = JSON.parse(readFileSync(snapshotFile, 'utf8')) as { data: WcWallet[] }

  test('default: ≥ 40 current v2 wallets, each with a logo file (small, no script) and a way to reach it', () => {
    expect(snapshot.data.length).toBeGreaterThanOrEqual(40)
    for (const wallet of snapshot.data) {
      const logo = join(logosDir, wallet.logo ?? 'missing')
      expect(statSync(logo).size, wallet.name).toBeLessThan(40_000)
      expect(readFileSync(logo, 'utf8'), wallet.name).not.toMatch(/<script|javascript:|on\w+=/i)
      const reach = [
        wallet.mobile_link,
        wallet.app_store,
        wallet.play_store,
        wallet.chrome_store,
        wallet.webapp_link,
      ]
      expect(reach.some(Boolean), wallet.name).toBe(true)
    }
    for (const name of [
      'MetaMask',
      'Trust Wallet',
      'Rainbow',
      'Ledger Live',
      'Uniswap Wallet',
      'Safe',
      'Zerion',
    ])
      expect(snapshot.data.map((w) => w.name)).toContain(name)
  })

  test('behavior: listed before the first explorer read, with logos served by this server', async () => {
    explorer.state.failing = true
    const { walletList } = list()
    const origin = await serve(walletList)
    const doc = (await (await fetch(`${origin}/registry/wallets.json`)).json()) as Doc
    expect(doc.count).toBe(snapshot.data.length + 1)
    for (const entry of Object.values(doc.listings)) {
      expect(entry.image_url.sm.startsWith(`${origin}/registry/logos/`), entry.name).toBe(true)
      const logo = await fetch(entry.image_url.sm)
      expect(logo.status, entry.name).toBe(200)
      expect(logo.headers.get('content-type')).toMatch(/^image\/(svg\+xml|png)$/)
    }
    expect(doc.listings.c57ca95b47569778a828d19178114f4db188b89b763c899ba0be274e97267d96).toMatchObject({
      name: 'MetaMask',
      rdns: 'io.metamask',
      mobile: { native: 'metamask://', universal: 'https://metamask.app.link/' },
    })
  })

  test('behavior: nothing in the data or the list points at the retired registry.walletconnect.com', () => {
    expect(readFileSync(snapshotFile, 'utf8')).not.toContain('registry.walletconnect.com')
    const { walletList } = list()
    expect(walletList.document('https://pairlink.example').json.toString()).not.toContain('walletconnect.com')
    expect(readdirSync(logosDir).length).toBeGreaterThanOrEqual(snapshot.data.length)
  })
})

describe('createWalletList', () => {
  test('default: without a project id only Pairlink Wallet and the operator wallets, no explorer read', async () => {
    const extra = parse(list().walletList).listings[REFERENCE_WALLET_ID] as ListingEntry
    const { walletList } = list({
      explorer: undefined,
      extraWallets: [{ ...extra, id: 'in-house', name: 'In-house' }],
    })
    expect(await walletList.refreshIfDue()).toBe(false)
    expect(Object.keys(parse(walletList).listings)).toEqual([REFERENCE_WALLET_ID, 'in-house'])
    expect(explorer.state.listCalls).toBe(0)
  })

  test('behavior: reads every page of the explorer with the project id, st and sv', async () => {
    const { walletList } = list()
    expect(await walletList.refreshIfDue()).toBe(true)
    expect(explorer.state.listCalls).toBe(2)
    expect(Object.fromEntries(explorer.state.queries[1] ?? [])).toEqual({
      projectId: PROJECT_ID,
      st: 'pairlink',
      sv: '0.1.0',
      page: '2',
      entries: '100',
    })
    const doc = parse(walletList)
    expect(doc.count).toBe(151)
    expect(doc.listings.w1?.mobile).toEqual({ native: '', universal: 'https://link.w1.example' })
    expect(doc.listings.w2?.mobile).toEqual({ native: 'w2://', universal: '' })
    expect(doc.listings.w2?.image_url.sm).toBe('https://pairlink.example/registry/logos/wc-img-2')
    expect(walletList.source()).toBe('explorer')
  })

  test('behavior: refreshed at most daily (injected clock)', async () => {
    const { walletList, advance } = list()
    await walletList.refreshIfDue()
    advance(DAY - 1)
    expect(await walletList.refreshIfDue()).toBe(false)
    expect(explorer.state.listCalls).toBe(2)
    advance(1)
    explorer.state.total = 3
    expect(await walletList.refreshIfDue()).toBe(true)
    expect(parse(walletList).count).toBe(4)
  })

  test('error: a failed refresh (500) keeps serving the last good copy, and says so without the project id', async () => {
    const { walletList, advance, errors } = list()
    await walletList.refreshIfDue()
    advance(DAY)
    explorer.state.failing = true
    expect(await walletList.refreshIfDue()).toBe(false)
    expect(parse(walletList).count).toBe(151)
    expect(errors.join('\n')).toMatch(/HTTP 500/)
    expect(errors.join('\n')).not.toContain(PROJECT_ID)
  })

  test('behavior: the last good copy is kept on disk and served after a restart whose read fails', async () => {
    const cacheDir = mkdtempSync(join(tmpdir(), 'pairlink-wallets-'))
    await list({ cacheDir }).walletList.refreshIfDue()
    explorer.state.failing = true
    const restarted = list({ cacheDir }).walletList
    expect(await restarted.refreshIfDue()).toBe(false)
    expect(parse(restarted).count).toBe(151)
  })

  test('behavior: an explorer logo is fetched once and cached; an image id not in the list is never fetched', async () => {
    const { walletList } = list()
    await walletList.refreshIfDue()
    const origin = await serve(walletList)
    for (let i = 0; i < 2; i++) {
      const response = await fetch(`${origin}/registry/logos/wc-img-7`)
      expect(response.headers.get('content-type')).toBe('image/png')
      expect(response.headers.get('cache-control')).toBe('public, max-age=604800')
      expect(await response.text()).toBe('png of img-7')
    }
    expect(explorer.state.imageCalls).toBe(1)
    expect((await fetch(`${origin}/registry/logos/wc-unknown`)).status).toBe(404)
    expect(explorer.state.imageCalls).toBe(1)
  })
})

describe('/registry/wallets.json', () => {
  test('default: ETag, Cache-Control, Vary, CORS; If-None-Match answers 304 without a body', async () => {
    const origin = await serve(list().walletList)
    const first = await fetch(`${origin}/registry/wallets.json`)
    const etag = first.headers.get('etag')
    expect(etag).toMatch(/^"[\w-]+"$/)
    expect(first.headers.get('cache-control')).toBe('public, max-age=300')
    expect(first.headers.get('vary')).toBe('Accept-Encoding')
    expect(first.headers.get('access-control-allow-origin')).toBe('*')
    const again = await fetch(`${origin}/registry/wallets.json`, { headers: { 'if-none-match': etag ?? '' } })
    expect(again.status).toBe(304)
    expect(await again.text()).toBe('')
  })

  test.each([
    ['br', brotliDecompressSync],
    ['gzip', gunzipSync],
  ] as const)('behavior: %s body decompresses to the JSON and is much smaller', async (encoding, inflate) => {
    const { walletList } = list()
    const origin = await serve(walletList)
    const raw = await new Promise<{ headers: Record<string, unknown>; body: Buffer }>((resolve) => {
      // node:http, not fetch: fetch would decompress on its own and hide the encoding.
      import('node:http').then(({ get }) =>
        get(`${origin}/registry/wallets.json`, { headers: { 'accept-encoding': encoding } }, (response) => {
          const chunks: Buffer[] = []
          response.on('data', (chunk: Buffer) => chunks.push(chunk))
          response.on('end', () => resolve({ headers: response.headers, body: Buffer.concat(chunks) }))
        }),
      )
    })
    expect(raw.headers['content-encoding']).toBe(encoding)
    const json = inflate(raw.body).toString()
    expect(JSON.parse(json)).toEqual(JSON.parse(walletList.document(origin).json.toString()))
    expect(raw.body.length).toBeLessThan(json.length / 3)
  })

  test('behavior: read and built once, not per request: the same bytes while the snapshot file changes or goes', async () => {
    // The snapshot ships with the build and WALLETS_FILE is read at start-up: a change needs a restart.
    const copy = join(mkdtempSync(join(tmpdir(), 'pairlink-snapshot-')), 'wallets.json')
    writeFileSync(copy, readFileSync(snapshotFile))
    explorer.state.failing = true
    const { walletList } = list({ snapshotFile: copy })
    const origin = await serve(walletList)
    const answer = async () => {
      const response = await fetch(`${origin}/registry/wallets.json`)
      const headers = Object.fromEntries([...response.headers].filter(([name]) => name !== 'date'))
      return { status: response.status, headers, body: await response.text() }
    }
    const first = await answer()
    expect(first.status).toBe(200)
    writeFileSync(copy, JSON.stringify({ data: [] }))
    expect(await answer()).toEqual(first)
    rmSync(copy)
    expect(await answer()).toEqual(first)
    // One document per origin, compressed once: the same buffers every time.
    expect(walletList.document(origin)).toBe(walletList.document(origin))
  })
})

describe('readWalletsFile', async () => {
  const { readWalletsFile } = await import('./walletsFile.js')
  const dir = mkdtempSync(join(tmpdir(), 'pairlink-wallets-file-'))
  const file = (name: string, text: string) => {
    writeFileSync(join(dir, name), text)
    return join(dir, name)
  }

  test('default: entries with same-site logos and links', () => {
    const path = file(
      'ok.json',
      JSON.stringify([
        {
          id: 'acme',
          name: 'Acme',
          image_url: { sm: '/a.svg' },
          mobile: { universal: 'https://acme.example/wc' },
        },
      ]),
    )
    expect(readWalletsFile(path)).toMatchObject([
      { id: 'acme', mobile: { universal: 'https://acme.example/wc', native: '' } },
    ])
  })

  test.each([
    ['bad.json', '{ not json', /WALLETS_FILE \(.*bad\.json\) is not valid JSON/],
    ['noname.json', '[{"id":"x"}]', /WALLETS_FILE .* entry 0 \(x\) needs a "name"/],
    ['object.json', '{"a":1}', /WALLETS_FILE .* must be a JSON array/],
    [
      'offsite.json',
      '[{"id":"x","name":"X","image_url":{"sm":"https://cdn.example/x.png"}}]',
      /"image_url" must be a path on this server/,
    ],
  ])('error: %s', (name, text, message) => {
    expect(() => readWalletsFile(file(name, text))).toThrow(message)
  })

  test('error: a missing file names the variable', () => {
    expect(() => readWalletsFile(join(dir, 'nope.json'))).toThrow(/WALLETS_FILE .* cannot be read: ENOENT/)
  })
})
