import { fileURLToPath } from 'node:url'
import { defineConfig } from 'vite'

const packages = fileURLToPath(new URL('../../packages/', import.meta.url))

// The app bundles the workspace packages from their sources (as vitest does), so a dapp build never picks up a
// stale `dist` of a package that was edited but not rebuilt.
export default defineConfig({
  base: '/',
  resolve: {
    alias: [
      // `@pairlink/protocol/v2` is the protocol sources' v2 folder, `@pairlink/modal/injected` and `/languages` the modal's.
      {
        find: /^@pairlink\/(protocol|client|provider|modal|wagmi)(\/v2|\/injected|\/languages)?$/,
        replacement: `${packages}$1/src$2/index.ts`,
      },
    ],
    // One wagmi core for the hooks and the connector (each package has its own copy installed).
    dedupe: ['@wagmi/core', 'viem'],
  },
  // Two main chunks: the first screen (React, the client, the provider; ~300 kB raw, ~96 kB gzip) and the connected
  // view (wagmi, TanStack Query, viem's actions, the cards; ~215 kB raw, ~63 kB gzip), loaded lazily (App.tsx), with
  // viem's secp256k1 curve apart until the first signature check; the modal is a third, small one. A chunk past
  // 400 kB means something heavy slipped into one of them: Vite warns.
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    sourcemap: true,
    target: 'es2022',
    chunkSizeWarningLimit: 400,
    rolldownOptions: {
      // wagmi and TanStack Query mark their hooks `"use client"` for React Server Components; this app has none, and the
      // bundle is all client code: the directive means nothing here, and Rolldown warns once per file (85 of them).
      // Only that warning, only for node_modules: a directive in our own code still warns.
      onwarn(warning, warn) {
        const thirdParty = /[\\/]node_modules[\\/]/.test(warning.id ?? '')
        if (
          warning.code === 'MODULE_LEVEL_DIRECTIVE' &&
          thirdParty &&
          warning.message.includes('"use client"')
        )
          return
        warn(warning)
      },
      output: {
        // The modal's code is a chunk of its own, imported lazily by the app's modal adapter (modal.ts) and by the
        // wagmi connector's fallback: named after the modal rather than after its `src` folder.
        chunkFileNames: (chunk) =>
          /packages[\\/]modal[\\/]src[\\/]index\.ts$/.test(chunk.facadeModuleId ?? '')
            ? 'assets/modal-[hash].js'
            : 'assets/[name]-[hash].js',
      },
    },
  },
})
