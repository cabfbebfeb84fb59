import { fileURLToPath } from 'node:url'
import { defineConfig } from 'vite'

const packages = fileURLToPath(new URL('../../packages/', import.meta.url))

// Served by apps/server under /wallet (SPA fallback, so /wallet/wc?uri=… loads this app too).
export default defineConfig({
  base: '/wallet/',
  // Build from the packages' sources, as the tests do, so the page never ships a stale package build;
  // `@pairlink/protocol/v2` is the protocol sources' v2 folder.
  resolve: {
    alias: [
      { find: /^@pairlink\/(protocol|client)(\/v2)?$/, replacement: `${packages}$1/src$2/index.ts` },
      { find: /^@pairlink\/smart-account$/, replacement: `${packages}smart-account/src/index.ts` },
      // The languages the modal and the web app speak, and their message tables: one resolution for all three.
      { find: /^@pairlink\/modal\/languages$/, replacement: `${packages}modal/src/languages/index.ts` },
    ],
  },
  // The first screen needs React and viem (accounts, signing): React goes in a chunk of its own, which changes less
  // often than the wallet's code, so neither main chunk passes Vite's 500 kB warning. A chunk past it means something
  // heavy slipped into the first screen: Vite warns (test/appBuilds.test.ts fails).
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    sourcemap: true,
    rolldownOptions: {
      output: {
        codeSplitting: {
          groups: [{ name: 'react', test: /node_modules[\\/](react|react-dom|scheduler)[\\/]/ }],
        },
      },
    },
  },
})
