import { readFileSync } from 'node:fs'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { fileURLToPath } from 'node:url'
import { createBridgeServer } from '@pairlink/bridge'
import { build } from 'esbuild'

const here = (path: string) => fileURLToPath(new URL(path, import.meta.url))
const REGISTRY = readFileSync(here('../../../../shared/registry/wallets.json'))

/** The URI of the reference's deep-link vectors. */
export const URI =
  'wc:8a5e5bdc-a0e4-4702-ba63-8f1a5655744f@1?bridge=https%3A%2F%2Fbridge.walletconnect.org&key=41791102999c339c844880b23950704cc43aa840f3739e365323cda4dfa89e7a'

// A host page with loud styles: none of them may reach into the modal. `lang` and `scheme` (its declared
// `color-scheme`) come from the page's address, as an app would set them.
const page = (script: string, query: URLSearchParams) => {
  const lang = (query.get('lang') ?? 'en').replace(/[^a-zA-Z-]/g, '')
  const scheme = (query.get('scheme') ?? '').replace(/[^a-z ]/g, '')
  return `<!doctype html><html lang="${lang}"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width,initial-scale=1,viewport-fit=cover"><title>modal e2e</title>
<style>${scheme ? `:root{color-scheme:${scheme}}` : ''}p{color:rgb(255,0,0);font-size:40px;font-family:serif}button{background:rgb(255,0,0)}svg{display:none}</style></head>
<body><p id="outside">Host page text</p><button id="opener" type="button">Connect wallet</button><div id="root"></div>
<script type="module" src="/${script}.js"></script></body></html>`
}

/** Wallets of the registry variant `/registry?icons=1` that get an icon on this server, and one that fails to load. */
export const ICONS = { 'Trust Wallet': '/icons/trust.svg', MetaMask: '/icons/missing.svg' } as const

const ICON = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 52 52"><rect width="52" height="52" fill="#3375bb"/><path d="M26 10l14 6c0 14-6 22-14 26-8-4-14-12-14-26z" fill="#fff"/></svg>`

/** The registry with `image_url` filled, for the wallets of {@link ICONS}, as an operator's own registry would. */
function withIcons(origin: string): string {
  const data = JSON.parse(REGISTRY.toString()) as { listings: Record<string, Record<string, unknown>> }
  for (const entry of Object.values(data.listings)) {
    const icon = ICONS[entry.name as keyof typeof ICONS]
    if (icon) entry.image_url = { sm: `${origin}${icon}`, md: `${origin}${icon}`, lg: `${origin}${icon}` }
  }
  return JSON.stringify(data)
}

async function bundle(): Promise<Map<string, Uint8Array>> {
  const result = await build({
    entryPoints: { plain: here('pages/plain.ts'), react: here('pages/react.tsx'), v1: here('pages/v1.ts') },
    bundle: true,
    format: 'esm',
    splitting: true,
    outdir: '/out',
    write: false,
    platform: 'browser',
    jsx: 'automatic',
    alias: {
      '@pairlink/protocol': here('../../../packages/protocol/src/index.ts'),
      // The modal reads WalletConnect's explorer URL from the v2 entry.
      '@pairlink/protocol/v2': here('../../../packages/protocol/src/v2/index.ts'),
    },
    define: { global: 'globalThis', 'process.env.NODE_ENV': '"production"' },
    inject: [here('buffer-shim.ts')],
    external: ['ws'],
    logLevel: 'error',
  })
  return new Map(result.outputFiles.map((file) => [file.path.slice('/out/'.length), file.contents]))
}

/**
 * Starts the test site on 127.0.0.1: the three pages and a registry that can be told to fail; and beside it
 * Pairlink's real bridge on its own port (`bridgeUrl`), for the v1 page.
 */
export async function startServer() {
  const files = await bundle()
  const bridge = createBridgeServer()
  const { url: bridgeUrl } = await bridge.listen(0, '127.0.0.1')
  const state = { registryFailing: false, registryRequests: 0, iconRequests: [] as string[] }
  const server = createServer((request, response) => {
    const [path = '/', search = ''] = (request.url ?? '/').split('?')
    const query = new URLSearchParams(search)
    if (path === '/registry') {
      state.registryRequests++
      if (state.registryFailing) return void response.writeHead(503).end('unavailable')
      const body = query.has('icons') ? withIcons(`http://${request.headers.host}`) : REGISTRY
      return void response.writeHead(200, { 'content-type': 'application/json' }).end(body)
    }
    if (path.startsWith('/icons/')) {
      state.iconRequests.push(path)
      if (path !== ICONS['Trust Wallet']) return void response.writeHead(404).end()
      return void response.writeHead(200, { 'content-type': 'image/svg+xml' }).end(ICON)
    }
    const name = path.slice(1).replace(/\.html$/, '') || 'plain'
    if (['plain', 'react', 'v1'].includes(name)) {
      return void response.writeHead(200, { 'content-type': 'text/html' }).end(page(name, query))
    }
    const file = files.get(path.slice(1))
    if (file) return void response.writeHead(200, { 'content-type': 'text/javascript' }).end(file)
    response.writeHead(404).end()
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  return {
    url,
    bridgeUrl,
    state,
    close: async () => {
      await bridge.close()
      await new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      })
    },
  }
}
