#!/usr/bin/env node
// Runs every benchmark under bench/ (bench/<name>/index.mjs), each printing one JSON line. `npm run bench -- crypto`
// runs only the named ones. Needs a build first (`npm run build`).
import { spawnSync } from 'node:child_process'
import { existsSync, readdirSync } from 'node:fs'
import { join } from 'node:path'
import { root } from './lib.mjs'

const wanted = process.argv.slice(2)
const benches = readdirSync(join(root, 'bench'))
  .filter((name) => existsSync(join(root, 'bench', name, 'index.mjs')))
  .filter((name) => wanted.length === 0 || wanted.includes(name))
let failed = false
for (const name of benches) {
  const r = spawnSync(process.execPath, [join(root, 'bench', name, 'index.mjs')], {
    cwd: root,
    stdio: 'inherit',
  })
  failed ||= r.status !== 0
}
process.exit(failed ? 1 : 0)
