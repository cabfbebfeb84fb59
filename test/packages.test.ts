import { spawnSync } from 'node:child_process'
import { readdirSync, readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { describe, expect, test } from 'vitest'

const root = fileURLToPath(new URL('..', import.meta.url))

/** Every entry of every package's `exports` map (`@pairlink/x`, `@pairlink/x/sub`), as a user imports it. */
const entries = readdirSync(new URL('../packages/', import.meta.url)).flatMap((dir) => {
  const pkg = JSON.parse(readFileSync(new URL(`../packages/${dir}/package.json`, import.meta.url), 'utf8'))
  return Object.keys(pkg.exports ?? {})
    .filter((subpath) => !subpath.endsWith('.json'))
    .map((subpath) => `${pkg.name}${subpath.slice(1)}`)
})

// Run in a plain Node process, outside vitest's aliases: what a user's `import '@pairlink/…'` gets from the build.
describe('every package entry is importable from Node by its name after the build', () => {
  test('args: the entries include each package and its subpaths', () => {
    expect(entries).toEqual(
      expect.arrayContaining(['@pairlink/protocol', '@pairlink/client', '@pairlink/modal/react']),
    )
  })

  test.each(entries)('%s', (name) => {
    const script = `const m = await import(${JSON.stringify(name)}); process.stdout.write(JSON.stringify(Object.values(m).filter((v) => typeof v === 'function').length))`
    const result = spawnSync(process.execPath, ['--input-type=module', '-e', script], {
      cwd: root,
      encoding: 'utf8',
    })
    expect(result.stderr).toBe('')
    expect(Number(result.stdout)).toBeGreaterThan(0)
  })
})

/** The workspaces npm would publish (not private), with their folder. */
const published = readdirSync(new URL('../packages/', import.meta.url))
  .map((dir) => ({
    dir,
    pkg: JSON.parse(readFileSync(new URL(`../packages/${dir}/package.json`, import.meta.url), 'utf8')),
  }))
  .filter(({ pkg }) => !pkg.private)

describe('every published package is ready to install: ESM with types, its files and its history', () => {
  const text = (dir: string, file: string) =>
    readFileSync(new URL(`../packages/${dir}/${file}`, import.meta.url), 'utf8')

  test('args: the published packages', () => {
    expect(published.map(({ pkg }) => pkg.name).sort()).toEqual([
      '@pairlink/bridge',
      '@pairlink/client',
      '@pairlink/modal',
      '@pairlink/protocol',
      '@pairlink/provider',
      '@pairlink/smart-account',
      '@pairlink/wagmi',
    ])
  })

  test.each(published)('$pkg.name', ({ dir, pkg }) => {
    expect(pkg.type).toBe('module')
    expect(pkg.sideEffects).toBe(false)
    expect(pkg.license).toBe('MIT')
    for (const [subpath, target] of Object.entries<{ types?: string; default?: string }>(pkg.exports)) {
      if (subpath.endsWith('.json')) continue
      expect(target.types, `${subpath} has types`).toMatch(/^\.\/dist\/.+\.d\.ts$/)
      expect(target.default, `${subpath} is ESM in dist`).toMatch(/^\.\/dist\/.+\.js$/)
    }
    expect(text(dir, 'LICENSE')).toBe(readFileSync(new URL('../LICENSE', import.meta.url), 'utf8'))
    // The changelog (changesets' format) tells the version the package is at.
    expect(text(dir, 'CHANGELOG.md')).toMatch(
      new RegExp(`^# ${pkg.name}\\n\\n## ${pkg.version.replace(/\./g, '\\.')}\\n`),
    )
    // A quick start: a code block near the top of the README.
    const readme = text(dir, 'README.md')
    expect(readme.startsWith(`# ${pkg.name}\n`)).toBe(true)
    expect(readme.split('\n').slice(0, 40).join('\n')).toMatch(/```(ts|tsx|sh)\n/)
  })
})
