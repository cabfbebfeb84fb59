#!/usr/bin/env node
// `npm pack` of @pairlink/server and every workspace it depends on at run time (`dependencies`, transitively) into
// the folder named by the argument, after `npm run build`: what an install of the server from tarballs needs, since
// the registry has none of them at this version. The image's build stage runs it (Dockerfile); the list follows the
// manifests, so a new Pairlink dependency of the server is packed without anyone editing the image.
// `--list`: print the names only.
import { spawnSync } from 'node:child_process'
import { mkdirSync } from 'node:fs'
import { resolve } from 'node:path'
import { root, workspaces } from './lib.mjs'

/** @type {Map<string, Record<string, any>>} */
const manifests = new Map(workspaces().map(({ pkg }) => [pkg.name, pkg]))
/** @type {Set<string>} */
const names = new Set()
const add = (/** @type {string} */ name) => {
  const pkg = manifests.get(name)
  if (!pkg || names.has(name)) return
  names.add(name)
  for (const dependency of Object.keys(pkg.dependencies ?? {})) add(dependency)
}
add('@pairlink/server')
const sorted = [...names].sort()

const destination = process.argv[2]
if (destination === '--list') {
  console.log(sorted.join('\n'))
  process.exit(0)
}
if (!destination) {
  console.error('usage: node scripts/pack-server.mjs <destination folder> | --list')
  process.exit(2)
}
mkdirSync(resolve(destination), { recursive: true })
const r = spawnSync(
  'npm',
  ['pack', '--pack-destination', resolve(destination), ...sorted.flatMap((name) => ['--workspace', name])],
  { cwd: root, stdio: 'inherit' },
)
process.exit(r.status ?? 1)
