import { fileURLToPath } from 'node:url'
import { defineConfig } from 'vite'

const packages = fileURLToPath(new URL('../../packages/', import.meta.url))

// The app bundles the workspace packages from their sources (as vitest does), so a dapp build never picks up a
// stale `dist` of a package that was edited but not rebuilt.
export default defineConfig({
  base: '/',
  resolve: {
    alias: [
      // `@pairlink/protocol/v2` is the protocol sources' v2 folder.
      {
        find: /^@pairlink\/(protocol|client|provider|modal)(\/v2)?$/,
        replacement: `${packages}$1/src$2/index.ts`,
      },
    ],
  },
  // Two chunks of ~300 kB raw (~94 kB gzip) each: the first screen (React, the client, the provider) and the
  // connected view (viem with its curves and hashes, the cards), loaded lazily (App.tsx); the modal is a third, small
  // one. A chunk past 350 kB means something heavy slipped into one of them: Vite warns.
  build: { outDir: 'dist', emptyOutDir: true, sourcemap: true, target: 'es2022', chunkSizeWarningLimit: 350 },
})
