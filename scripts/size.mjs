#!/usr/bin/env node
// Checks every size budget of every workspace: each package.json with a `size-limit` field is measured by size-limit
// in its own folder, after an incremental build of the packages. Fails when any budget is exceeded. `npm run size`.
import { spawnSync } from 'node:child_process'
import { join } from 'node:path'
import { root, workspaces } from './lib.mjs'

const build = spawnSync(join(root, 'node_modules/.bin/tsc'), ['-b', 'tsconfig.json'], {
  cwd: root,
  stdio: 'inherit',
})
if (build.status !== 0) process.exit(build.status ?? 1)

const budgeted = workspaces().filter(({ pkg }) => Array.isArray(pkg['size-limit']))
if (budgeted.length === 0) {
  console.error('[size] no workspace has a size-limit field')
  process.exit(1)
}
let failed = false
for (const { dir, pkg } of budgeted) {
  const r = spawnSync(join(root, 'node_modules/.bin/size-limit'), ['--json'], {
    cwd: join(root, dir),
    encoding: 'utf8',
  })
  /** @type {{ name: string, size: number, sizeLimit: number, passed: boolean }[] | undefined} */
  let results
  try {
    results = JSON.parse(r.stdout)
  } catch {
    results = undefined
  }
  if (!results) {
    console.error(`[size] ${pkg.name}: size-limit failed\n${r.stdout}${r.stderr}`)
    failed = true
    continue
  }
  for (const { name, size, sizeLimit, passed } of results) {
    const kb = (/** @type {number} */ bytes) => `${(bytes / 1000).toFixed(2)} kB`
    console.log(`[size] ${passed ? 'ok  ' : 'FAIL'} ${kb(size)} of ${kb(sizeLimit)}  ${name}`)
    failed ||= !passed
  }
  failed ||= r.status !== 0
}
process.exit(failed ? 1 : 0)
