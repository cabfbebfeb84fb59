// Time from open() to the QR code painted: Pairlink's plain modal vs v1's @walletconnect/qrcode-modal@1.8.0,
// same Chromium, same page, same registry, runs alternating. Prints one JSON line.
import { existsSync, readFileSync } from 'node:fs'
import { createServer } from 'node:http'
import { fileURLToPath } from 'node:url'
import { gzipSync } from 'node:zlib'
import { build } from 'esbuild'
import { chromium } from 'playwright-core'
import { chromiumLaunch } from '../../e2e/chromium.mjs'

const RUNS = Number(process.env.BENCH_RUNS ?? 30)
const here = (path) => fileURLToPath(new URL(path, import.meta.url))
const URI =
  'wc:8a5e5bdc-a0e4-4702-ba63-8f1a5655744f@1?bridge=https%3A%2F%2Fbridge.walletconnect.org&key=41791102999c339c844880b23950704cc43aa840f3739e365323cda4dfa89e7a'

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
  return result.outputFiles[0].contents
}

// Ours from the built package (what apps install; run `npx tsc -b packages/modal` first), as size-limit measures it.
if (!existsSync(here('../../packages/modal/dist/open.js')))
  throw new Error('Build first: npx tsc -b packages/modal')
const bundles = {
  ours: await bundle(`import { open, close } from '@pairlink/modal/open'; window.modal = { open, close }`),
  v1: await bundle(`import QRCodeModal from '@walletconnect/qrcode-modal'; window.modal = QRCodeModal`, {
    bufferShim: true,
  }),
}
const registry = readFileSync(here('../../../shared/registry/wallets.json'))
const page = (name) =>
  `<!doctype html><html><head><meta charset="utf-8"><title>bench</title></head><body><script src="/${name}.js"></script></body></html>`

const server = createServer((request, response) => {
  const path = (request.url ?? '/').split('?')[0]
  if (path === '/registry')
    return void response.writeHead(200, { 'content-type': 'application/json' }).end(registry)
  const name = path.slice(1).replace(/\.(js|html)$/, '')
  if (!(name in bundles)) return void response.writeHead(404).end()
  if (path.endsWith('.js'))
    return void response.writeHead(200, { 'content-type': 'text/javascript' }).end(bundles[name])
  response.writeHead(200, { 'content-type': 'text/html' }).end(page(name))
})
await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve))
const origin = `http://127.0.0.1:${server.address().port}`

const browser = await chromium.launch(chromiumLaunch)
const context = await browser.newContext({ viewport: { width: 1280, height: 800 } })
const tab = await context.newPage()

// In the page: open(), wait until the QR <svg> exists (ours is in an open shadow root, v1's in the light DOM),
// then until the frame that shows it has been painted (a task queued from requestAnimationFrame runs after paint).
async function measure(name) {
  await tab.goto(`${origin}/${name}.html`)
  return tab.evaluate(
    ({ uri, registryUrl }) =>
      new Promise((resolve, reject) => {
        const qr = () =>
          document.querySelector('.walletconnect-qrcode__image') ??
          document
            .getElementById('walletconnect-wrapper')
            ?.shadowRoot?.querySelector('.walletconnect-qrcode__image')
        const start = performance.now()
        const deadline = start + 10_000
        window.modal.open(uri, () => {}, { registryUrl })
        const poll = () => {
          if (performance.now() > deadline) return reject(new Error('QR never appeared'))
          if (!qr()) return requestAnimationFrame(poll)
          requestAnimationFrame(() => setTimeout(() => resolve(performance.now() - start), 0))
        }
        // v1 draws its QR after a promise; check once the microtasks of open() have run, then each frame.
        queueMicrotask(() => queueMicrotask(poll))
      }),
    { uri: URI, registryUrl: `${origin}/registry` },
  )
}

const times = { ours: [], v1: [] }
try {
  for (let run = 0; run < RUNS; run++) {
    for (const name of run % 2 === 0 ? ['ours', 'v1'] : ['v1', 'ours']) times[name].push(await measure(name))
  }
} finally {
  await browser.close()
  server.close()
}

const stats = (values) => {
  const sorted = [...values].sort((a, b) => a - b)
  const at = (q) => sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)]
  return { median_ms: +at(0.5).toFixed(2), p95_ms: +at(0.95).toFixed(2) }
}
const ours = stats(times.ours)
const v1 = stats(times.v1)
console.log(
  JSON.stringify({
    bench: 'modal',
    metric: 'open() to QR painted',
    runs: RUNS,
    chromium: browser.version(),
    ours,
    v1,
    ratio: +(ours.median_ms / v1.median_ms).toFixed(3),
    ours_bundle_gzip_bytes: gzipSync(bundles.ours).length,
    v1_bundle_gzip_bytes: gzipSync(bundles.v1).length,
  }),
)
