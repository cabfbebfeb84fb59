import { fileURLToPath } from 'node:url'
import { defineConfig } from 'vite'

const packages = fileURLToPath(new URL('../../packages/', import.meta.url))

// The app bundles the workspace packages from their sources (as vitest does), so a dapp build never picks up a
// stale `dist` of a package that was edited but not rebuilt.
export default defineConfig({
  base: '/',
  resolve: {
    alias: [
      { find: /^@pairlink\/(protocol|client|provider|modal)$/, replacement: `${packages}$1/src/index.ts` },
    ],
  },
  // viem's signature checks and SIWE bring their curves and hashes: ~190 kB gzipped in all, one request.
  build: { outDir: 'dist', emptyOutDir: true, sourcemap: true, target: 'es2022', chunkSizeWarningLimit: 700 },
})
