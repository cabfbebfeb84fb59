#!/usr/bin/env node
// Builds every package (tsc project references, incremental: quick when nothing changed), then each app's own build
// step (Vite bundles, the server's tsc build), skipped when none of its inputs changed.
import { spawnSync } from 'node:child_process'
import { existsSync, mkdirSync, readdirSync, statSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { root, workspaces } from './lib.mjs'

/**
 * Runs a command to its end; exits the build with its status when it fails.
 * @param {string} cmd
 * @param {string[]} args
 */
const run = (cmd, args, cwd = root) => {
  const r = spawnSync(cmd, args, { cwd, stdio: 'inherit' })
  if (r.status !== 0) {
    console.error(`[build] ${cmd} ${args.join(' ')} failed`)
    process.exit(r.status ?? 1)
  }
}

const all = workspaces()
const packages = all
  .map(({ dir }) => dir)
  .filter((dir) => dir.startsWith('packages/') && existsSync(join(root, dir, 'tsconfig.build.json')))
run(join(root, 'node_modules/.bin/tsc'), ['-b', ...packages.map((dir) => join(dir, 'tsconfig.build.json'))])

// An app is rebuilt only when one of its inputs — its own files or any package's sources, which Vite bundles
// directly — is newer than its last build: a second `npm start` does not wait for bundlers.
const packageSources = packages.map((dir) => join(root, dir, 'src'))
for (const { dir: app } of all.filter(({ dir, pkg }) => dir.startsWith('apps/') && pkg.scripts?.build)) {
  const dir = join(root, app)
  const stamp = join(dir, 'dist', '.pairlink-build')
  const inputs = [dir, ...packageSources]
  if (existsSync(stamp) && newest(inputs) <= statSync(stamp).mtimeMs) continue
  // A Vite app's build script ends with `vite build`, which takes the flag: warnings and errors only, not the list
  // of every asset (`npm run build` in the app's folder still prints it). One line per app instead.
  const vite = existsSync(join(dir, 'vite.config.ts'))
  const started = performance.now()
  run('npm', ['run', '--silent', 'build', ...(vite ? ['--', '--logLevel', 'warn'] : [])], dir)
  console.log(`[build] ${app} built in ${((performance.now() - started) / 1000).toFixed(1)} s`)
  mkdirSync(dirname(stamp), { recursive: true })
  writeFileSync(stamp, new Date().toISOString())
}

// The server sends the apps' .br/.gz copies as they are: written once here, kept while they are newer than their file.
run('node', [
  join(root, 'apps/server/scripts/precompress.mjs'),
  join(root, 'apps/web/dist'),
  join(root, 'apps/wallet/dist'),
])

/**
 * The newest modification time of the files under `paths`, skipping build output and dependencies.
 * @param {string[]} paths
 */
function newest(paths) {
  let latest = 0
  const skip = new Set(['node_modules', 'dist', 'dist-cli', 'data'])
  const walk = (/** @type {string} */ path) => {
    const info = statSync(path, { throwIfNoEntry: false })
    if (!info) return
    if (info.isDirectory()) {
      for (const entry of readdirSync(path)) if (!skip.has(entry)) walk(join(path, entry))
    } else if (info.mtimeMs > latest) latest = info.mtimeMs
  }
  for (const path of paths) walk(path)
  return latest
}
