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
