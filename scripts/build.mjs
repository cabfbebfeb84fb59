#!/usr/bin/env node
// Builds every package that has sources (tsc project references, incremental: quick when nothing changed), then
// the apps that have a build step of their own.
import { spawnSync } from 'node:child_process'
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { root } from './lib.mjs'

const run = (cmd, args, cwd = root) => {
  const r = spawnSync(cmd, args, { cwd, stdio: 'inherit' })
  if (r.status !== 0) {
    console.error(`[build] ${cmd} ${args.join(' ')} failed`)
    process.exit(r.status ?? 1)
  }
}

const packages = ['protocol', 'bridge', 'client', 'provider', 'modal', 'test-kit']
  .map((name) => join('packages', name))
  .filter((dir) => existsSync(join(root, dir, 'src', 'index.ts')))
run(join(root, 'node_modules/.bin/tsc'), ['-b', ...packages.map((dir) => join(dir, 'tsconfig.build.json'))])

// An app is rebuilt only when one of its inputs — its own files or any package's sources, which Vite bundles
// directly — is newer than its last build: a second `npm start` does not wait for bundlers.
const packageSources = packages.map((dir) => join(root, dir, 'src'))
for (const app of ['server', 'wallet', 'web']) {
  const dir = join(root, 'apps', app)
  const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'))
  if (!pkg.scripts?.build || !existsSync(join(dir, 'src'))) continue
  const stamp = join(dir, 'dist', '.pairlink-build')
  const inputs = [dir, ...packageSources]
  if (existsSync(stamp) && newest(inputs) <= statSync(stamp).mtimeMs) continue
  run('npm', ['run', '--silent', 'build'], dir)
  mkdirSync(dirname(stamp), { recursive: true })
  writeFileSync(stamp, new Date().toISOString())
}

/** The newest modification time of the files under `paths`, skipping build output and dependencies. */
function newest(paths) {
  let latest = 0
  const skip = new Set(['node_modules', 'dist', 'dist-cli', 'data'])
  const walk = (path) => {
    const info = statSync(path, { throwIfNoEntry: false })
    if (!info) return
    if (info.isDirectory()) {
      for (const entry of readdirSync(path)) if (!skip.has(entry)) walk(join(path, entry))
    } else if (info.mtimeMs > latest) latest = info.mtimeMs
  }
  for (const path of paths) walk(path)
  return latest
}
