import { fileURLToPath } from 'node:url'
import { defineConfig } from 'vitest/config'

const src = (pkg: string) => fileURLToPath(new URL(`./packages/${pkg}/src/index.ts`, import.meta.url))

// Tests import each package from its sources, so `vitest` never runs against a stale build.
const alias = {
  '@pairlink/protocol': src('protocol'),
  '@pairlink/bridge': src('bridge'),
  '@pairlink/client': src('client'),
  '@pairlink/provider': src('provider'),
  '@pairlink/modal': src('modal'),
}

export default defineConfig({
  resolve: { alias },
  test: {
    testTimeout: 30_000,
    hookTimeout: 60_000,
    projects: [
      {
        extends: true,
        test: {
          name: 'node',
          environment: 'node',
          include: [
            'packages/*/src/**/*.test.ts',
            'apps/*/src/**/*.test.ts',
            'apps/*/test/**/*.test.ts',
            'test/**/*.test.ts',
          ],
        },
      },
      {
        // The protocol package must hold in a browser-like global scope too (WebCrypto, TextEncoder, no Buffer).
        extends: true,
        test: {
          name: 'dom',
          environment: 'happy-dom',
          include: [
            'packages/protocol/src/**/*.test.ts',
            'packages/*/src/**/*.test.tsx',
            'apps/*/src/**/*.test.tsx',
          ],
        },
      },
    ],
  },
})
