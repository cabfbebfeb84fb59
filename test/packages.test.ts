import { spawnSync } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { describe, expect, test } from 'vitest'

const root = fileURLToPath(new URL('..', import.meta.url))

// Run in a plain Node process, outside vitest's aliases: what a user's `import '@pairlink/…'` gets from the build.
describe('every package is importable from Node by its name after the build', () => {
  test.each([
    ['@pairlink/protocol', 'parseUri'],
    ['@pairlink/bridge', 'createBridge'],
    ['@pairlink/client', 'createClient'],
    ['@pairlink/provider', 'createProvider'],
    ['@pairlink/modal', 'QrModal'],
    ['@pairlink/modal/open', 'open'],
  ])('%s', (name, entry) => {
    const script = `const m = await import(${JSON.stringify(name)}); process.stdout.write(typeof m[${JSON.stringify(entry)}])`
    const result = spawnSync(process.execPath, ['--input-type=module', '-e', script], {
      cwd: root,
      encoding: 'utf8',
    })
    expect(result.stderr).toBe('')
    expect(result.stdout).toBe('function')
  })
})
