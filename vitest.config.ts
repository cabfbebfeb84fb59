import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { defineConfig } from 'vitest/config'

const packagesDir = new URL('./packages/', import.meta.url)

/**
 * Every entry of every package's `exports` map, pointed at its source (`./dist/x.js` → `./src/x.ts`): tests import
 * packages by name, as apps do, yet never run against a stale build.
 */
function sourceAliases() {
  const aliases: { find: RegExp; replacement: string }[] = []
  for (const dir of readdirSync(packagesDir)) {
    const pkg = JSON.parse(readFileSync(new URL(`${dir}/package.json`, packagesDir), 'utf8'))
    for (const [subpath, target] of Object.entries<{ default?: string } | string>(pkg.exports ?? {})) {
      const file = typeof target === 'string' ? target : target.default
      if (!file?.startsWith('./dist/')) continue
      const stem = fileURLToPath(
        new URL(`${dir}/${file.replace(/^\.\/dist\//, 'src/').replace(/\.js$/, '')}`, packagesDir),
      )
      const name = `${pkg.name}${subpath.slice(1)}`
      aliases.push({
        find: new RegExp(`^${name.replace(/[/.-]/g, '\\$&')}$`),
        replacement: existsSync(`${stem}.tsx`) ? `${stem}.tsx` : `${stem}.ts`,
      })
    }
  }
  return aliases
}

export default defineConfig({
  resolve: { alias: sourceAliases() },
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
          // Tests that need Node itself (child processes).
          exclude: ['**/*.node.test.ts', '**/node_modules/**'],
        },
      },
    ],
  },
})
