import { fileURLToPath } from 'node:url'
import { defineConfig } from 'vite'

const src = (pkg: string) => fileURLToPath(new URL(`../../packages/${pkg}/src/index.ts`, import.meta.url))

// Served by apps/server under /wallet (SPA fallback, so /wallet/wc?uri=… loads this app too).
export default defineConfig({
  base: '/wallet/',
  // Build from the packages' sources, as the tests do, so the page never ships a stale package build.
  resolve: { alias: { '@pairlink/protocol': src('protocol'), '@pairlink/client': src('client') } },
  build: { outDir: 'dist', emptyOutDir: true, sourcemap: true },
})
