import { spawnSync } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { expect, test } from 'vitest'

// The SDK is a dev dependency: the generator reruns it and compares byte for byte. Node only (a child process), so
// the browser-like project leaves this file out (vitest.config.ts).
test('behavior: the installed SDK still produces the committed vectors', () => {
  const script = fileURLToPath(new URL('../../test/generateV2Vectors.mjs', import.meta.url))
  const result = spawnSync(process.execPath, [script, '--check'], { encoding: 'utf8' })
  expect(result.stderr).toBe('')
  expect(result.status).toBe(0)
})
