#!/usr/bin/env node
// Runs every static gate, each through its own npm script, and fails if any fails: Biome (warnings fail too), the
// whole-tree type check, every size budget, publint and arethetypeswrong on each published package, the contents of each tarball (`npm pack --dry-run`), knip over every workspace. Runs them
// all even after a failure, so one CI run reports everything, and ends with one line per gate and its time.
// `npm run gates` (after a build; `npm test` has made one).
import { spawnSync } from 'node:child_process'
import { root } from './lib.mjs'

const gates = ['lint', 'typecheck', 'size', 'publint', 'attw', 'tarballs', 'knip']
const results = gates.map((gate) => {
  console.log(`\n[gates] npm run ${gate}`)
  const start = performance.now()
  const r = spawnSync('npm', ['run', '--silent', gate], { cwd: root, stdio: 'inherit' })
  return { gate, ok: r.status === 0, seconds: (performance.now() - start) / 1000 }
})
console.log('')
for (const { gate, ok, seconds } of results)
  console.log(`[gates] ${ok ? 'ok    ' : 'FAILED'} ${gate} (${seconds.toFixed(1)} s)`)
process.exit(results.every((r) => r.ok) ? 0 : 1)
