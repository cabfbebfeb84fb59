import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { fileURLToPath } from 'node:url'
import { build } from 'esbuild'

const here = (path: string) => fileURLToPath(new URL(path, import.meta.url))
const packages = here('../../../packages/')

const HTML = `<!doctype html><html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width,initial-scale=1"><title>v1 dapp</title></head>
<body><h1>v1 dapp</h1><button id="connect" type="button">Connect (v1)</button><p id="status"></p>
<script src="/page.js"></script></body></html>`

/**
 * Serves, on 127.0.0.1 and a free port, a page built like a dapp of 2022: `@walletconnect/client@1.8.0` with our
 * modal as its `qrcodeModal`, bundled by esbuild. Open it with `?bridge=<Pairlink origin>`.
 */
export async function startV1Dapp(productOrigin: string) {
  const result = await build({
    entryPoints: [here('v1dapp/page.ts')],
    bundle: true,
    format: 'iife',
    write: false,
    platform: 'browser',
    alias: {
      '@pairlink/modal/open': `${packages}modal/src/open.ts`,
      '@pairlink/protocol/v2': `${packages}protocol/src/v2/index.ts`,
      '@pairlink/protocol': `${packages}protocol/src/index.ts`,
    },
    define: { global: 'globalThis', 'process.env.NODE_ENV': '"production"' },
    inject: [here('v1dapp/buffer-shim.ts')],
    logLevel: 'error',
  })
  const script = result.outputFiles[0]?.contents ?? new Uint8Array()
  const server = createServer((request, response) => {
    const path = (request.url ?? '/').split('?')[0]
    if (path === '/page.js')
      return void response.writeHead(200, { 'content-type': 'text/javascript' }).end(script)
    // The product's registry sends no CORS header, so this page serves it from its own origin, as a dapp would.
    if (path === '/registry/wallets.json') {
      fetch(`${productOrigin}/registry/wallets.json`).then(
        async (upstream) =>
          response
            .writeHead(upstream.status, { 'content-type': 'application/json' })
            .end(await upstream.text()),
        () => response.writeHead(502).end(),
      )
      return
    }
    if (path === '/favicon.ico') return void response.writeHead(204).end()
    if (path === '/') return void response.writeHead(200, { 'content-type': 'text/html' }).end(HTML)
    response.writeHead(404).end()
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}
