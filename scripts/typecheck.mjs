#!/usr/bin/env node
// Type-checks the whole tree, tests included: builds the packages' declarations first (tsc -b, incremental), then
// checks every project below, two at a time, and fails if any has an error. `npm run typecheck`.
import { spawn, spawnSync } from 'node:child_process'
import { join } from 'node:path'
import { root } from './lib.mjs'

const tsc = join(root, 'node_modules/.bin/tsc')

/** Every tsconfig that is checked: each package and app with its tests, then the suites and tools around them. */
export const projects = [
  'packages/protocol/tsconfig.json',
  'packages/bridge/tsconfig.json',
  'packages/client/tsconfig.json',
  'packages/provider/tsconfig.json',
  'packages/modal/tsconfig.json',
  'packages/wagmi/tsconfig.json',
  'packages/smart-account/tsconfig.json',
  'packages/test-kit/tsconfig.json',
  'apps/server/tsconfig.json',
  'apps/web/tsconfig.json',
  'apps/wallet/tsconfig.json',
  'apps/wallet/tsconfig.cli.json',
  'e2e/tsconfig.json',
  'bench/tsconfig.json',
  'scripts/tsconfig.json',
  'test/tsconfig.json',
]

const build = spawnSync(tsc, ['-b', 'tsconfig.json'], { cwd: root, stdio: 'inherit' })
if (build.status !== 0) process.exit(build.status ?? 1)

/** @typedef {{ project: string, code: number | null, output: string }} Result */

/**
 * @param {string} project
 * @returns {Promise<Result>}
 */
const check = (project) =>
  new Promise((resolve) => {
    const child = spawn(tsc, ['-p', project, '--noEmit', '--pretty', 'false'], { cwd: root })
    let output = ''
    child.stdout.on('data', (chunk) => {
      output += chunk
    })
    child.stderr.on('data', (chunk) => {
      output += chunk
    })
    child.on('close', (code) => resolve({ project, code, output }))
  })

const queue = [...projects]
/** @type {Result[]} */
const failures = []
await Promise.all(
  Array.from({ length: 2 }, async () => {
    for (let project = queue.shift(); project; project = queue.shift()) {
      const result = await check(project)
      const errors = (result.output.match(/error TS\d+/g) ?? []).length
      console.log(`[typecheck] ${project}: ${result.code === 0 ? 'ok' : `${errors} error(s)`}`)
      if (result.code !== 0) failures.push(result)
    }
  }),
)
for (const { output } of failures) process.stdout.write(output)
process.exit(failures.length > 0 ? 1 : 0)
