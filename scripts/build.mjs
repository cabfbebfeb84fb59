#!/usr/bin/env node
// Builds every package that has sources (tsc project references, incremental: quick when nothing changed), then
// the apps that have a build step of their own.
import { spawnSync } from 'node:child_process'
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { root } from './lib.mjs'

const run = (cmd, args, cwd = root) => {
  const r = spawnSync(cmd, args, { cwd, stdio: 'inherit' })
  if (r.status !== 0) {
    console.error(`[build] ${cmd} ${args.join(' ')} failed`)
    process.exit(r.status ?? 1)
  }
}

const packages = ['protocol', 'bridge', 'client', 'provider', 'modal']
  .map((name) => join('packages', name))
  .filter((dir) => existsSync(join(root, dir, 'src', 'index.ts')))
run(join(root, 'node_modules/.bin/tsc'), ['-b', ...packages])

for (const app of ['server', 'wallet', 'web']) {
  const dir = join(root, 'apps', app)
  const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'))
  if (pkg.scripts?.build && existsSync(join(dir, 'src'))) run('npm', ['run', '--silent', 'build'], dir)
}
