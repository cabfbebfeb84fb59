#!/usr/bin/env node
// Time from open() to the QR code painted: Pairlink's plain modal vs v1's @walletconnect/qrcode-modal@1.8.0, same
// Chromium, same page, same registry. Each round measures ours, then v1 (bench/measure.mjs); prints one JSON line
// with the median (and p95) of each. Run `node scripts/build.mjs` first (it bundles the built package).
import { existsSync, readFileSync } from 'node:fs'
import { createServer } from 'node:http'
import { fileURLToPath } from 'node:url'
import { gzipSync } from 'node:zlib'
import { build } from 'esbuild'
import { chromium } from 'playwright-core'
import { chromiumLaunch } from '../../e2e/chromium.mjs'
import { interleave, median } from '../measure.mjs'

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 30)
/** The page gives up on one open() after this long. */
const OPEN_TIMEOUT_MS = 10_000
// Bundling and the browser's start, then two page loads a round, each far under this on a loaded machine: past it the
// bench fails instead of hanging.
const LIMIT_MS = 120_000 + ROUNDS * 2 * 2000
const here = (/** @type {string} */ path) => fileURLToPath(new URL(path, import.meta.url))
const URI =
  'wc:8a5e5bdc-a0e4-4702-ba63-8f1a5655744f@1?bridge=https%3A%2F%2Fbridge.walletconnect.org&key=41791102999c339c844880b23950704cc43aa840f3739e365323cda4dfa89e7a'

const watchdog = setTimeout(() => {
  console.error(`bench/modal: not done within ${LIMIT_MS} ms`)
  // Playwright kills the browsers it launched when the process exits.
  process.exit(1)
}, LIMIT_MS)
watchdog.unref()

/**
 * A minified browser IIFE of `source`.
 * @param {string} source
 * @returns {Promise<Uint8Array>}
 */
async function bundle(source, { bufferShim = false } = {}) {
  const result = await build({
    stdin: { contents: source, resolveDir: here('.'), loader: 'js' },
    bundle: true,
    minify: true,
    format: 'iife',
    platform: 'browser',
    write: false,
    define: { global: 'globalThis', 'process.env.NODE_ENV': '"production"' },
    // v1's modal expects Node's Buffer; ours does not, so only v1 carries the shim.
    inject: bufferShim ? [here('../../e2e/modal/support/buffer-shim.ts')] : [],
    logLevel: 'error',
  })
  const output = result.outputFiles[0]
  if (!output) throw new Error('esbuild wrote nothing')
  return output.contents
}

// Ours from the built package (what apps install), as size-limit measures it.
if (!existsSync(here('../../packages/modal/dist/open.js')))
  throw new Error('Build first: node scripts/build.mjs')
/** @typedef {'ours' | 'v1'} Name */
/** @type {Record<Name, Uint8Array>} */
const bundles = {
  ours: await bundle(`import { open, close } from '@pairlink/modal/open'; window.modal = { open, close }`),
  v1: await bundle(`import QRCodeModal from '@walletconnect/qrcode-modal'; window.modal = QRCodeModal`, {
    bufferShim: true,
  }),
}
/** @type {(name: string) => name is Name} */
const isName = (name) => name === 'ours' || name === 'v1'
const registry = readFileSync(here('../../../shared/registry/wallets.json'))
const page = (/** @type {Name} */ name) =>
  `<!doctype html><html><head><meta charset="utf-8"><title>bench</title></head><body><script src="/${name}.js"></script></body></html>`

const server = createServer((request, response) => {
  const path = (request.url ?? '/').split('?')[0] ?? '/'
  if (path === '/registry')
    return void response.writeHead(200, { 'content-type': 'application/json' }).end(registry)
  const name = path.slice(1).replace(/\.(js|html)$/, '')
  if (!isName(name)) return void response.writeHead(404).end()
  if (path.endsWith('.js'))
    return void response.writeHead(200, { 'content-type': 'text/javascript' }).end(bundles[name])
  response.writeHead(200, { 'content-type': 'text/html' }).end(page(name))
})
const port = await new Promise((resolve) =>
  server.listen(0, '127.0.0.1', () =>
    resolve(/** @type {import('node:net').AddressInfo} */ (server.address()).port),
  ),
)
const origin = `http://127.0.0.1:${port}`

const browser = await chromium.launch(chromiumLaunch)
const context = await browser.newContext({ viewport: { width: 1280, height: 800 } })
const tab = await context.newPage()

/**
 * What each bundle puts on `window`: v1's modal and ours share this shape.
 * @typedef {{ open(uri: string, onClose: () => void, options: { registryUrl: string }): void }} Modal
 */

/**
 * Milliseconds from `open()` to the QR painted, in a fresh page: open(), wait until the QR <svg> exists (ours is in an
 * open shadow root, v1's in the light DOM), then until the frame that shows it has been painted (a task queued from
 * requestAnimationFrame runs after paint).
 * @param {Name} name
 * @returns {Promise<number>}
 */
async function measure(name) {
  await tab.goto(`${origin}/${name}.html`)
  return tab.evaluate(
    ({ uri, registryUrl, timeout }) =>
      new Promise((resolve, reject) => {
        const { modal } = /** @type {typeof window & { modal: Modal }} */ (window)
        const qr = () =>
          document.querySelector('.walletconnect-qrcode__image') ??
          document
            .getElementById('walletconnect-wrapper')
            ?.shadowRoot?.querySelector('.walletconnect-qrcode__image')
        const start = performance.now()
        const deadline = start + timeout
        modal.open(uri, () => {}, { registryUrl })
        const poll = () => {
          if (performance.now() > deadline) return reject(new Error('QR never appeared'))
          if (!qr()) return void requestAnimationFrame(poll)
          requestAnimationFrame(() => setTimeout(() => resolve(performance.now() - start), 0))
        }
        // v1 draws its QR after a promise; check once the microtasks of open() have run, then each frame.
        queueMicrotask(() => queueMicrotask(poll))
      }),
    { uri: URI, registryUrl: `${origin}/registry`, timeout: OPEN_TIMEOUT_MS },
  )
}

/** @type {Awaited<ReturnType<typeof interleave<Name>>>} */
let result
try {
  // One page of each first, so neither pays the browser's first navigation in a counted round.
  await measure('ours')
  await measure('v1')
  result = await interleave({ ours: () => measure('ours'), v1: () => measure('v1') }, { rounds: ROUNDS })
} finally {
  await browser.close()
  server.close()
}

/**
 * The median and the 95th percentile (nearest rank) of `values`, in ms to 0.01.
 * @param {number[]} values
 */
const stats = (values) => {
  const sorted = [...values].sort((a, b) => a - b)
  const p95 = /** @type {number} */ (sorted[Math.min(sorted.length - 1, Math.ceil(0.95 * sorted.length) - 1)])
  return { median_ms: +median(values).toFixed(2), p95_ms: +p95.toFixed(2) }
}
const ours = stats(result.samples.ours)
const v1 = stats(result.samples.v1)
console.log(
  JSON.stringify({
    bench: 'modal',
    metric: 'open() to QR painted',
    rounds: ROUNDS,
    chromium: browser.version(),
    ours,
    v1,
    ratio: +(result.medians.ours / result.medians.v1).toFixed(3),
    ours_bundle_gzip_bytes: gzipSync(bundles.ours).length,
    v1_bundle_gzip_bytes: gzipSync(bundles.v1).length,
  }),
)
