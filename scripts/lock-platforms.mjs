#!/usr/bin/env node
// Completes package-lock.json with the other platforms' optional binary packages (biome, anvil, …) that this
// machine's registry mirror does not serve. npm leaves them out of the lock when it cannot fetch their metadata,
// and `npm ci` then refuses the lock as out of sync. Each added entry carries the `os`/`cpu` of its name, so npm
// skips it on every other platform, exactly as it skips a normal entry. Run after `npm install`.
import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { root } from './lib.mjs'

const file = join(root, 'package-lock.json')
const lock = JSON.parse(readFileSync(file, 'utf8'))
/** @type {Record<string, string>} */
const OS = {
  darwin: 'darwin',
  linux: 'linux',
  win32: 'win32',
  windows: 'win32',
  android: 'android',
  freebsd: 'freebsd',
  netbsd: 'netbsd',
  openbsd: 'openbsd',
  sunos: 'sunos',
  aix: 'aix',
  openharmony: 'openharmony',
}
/** @type {Record<string, string>} */
const CPU = {
  arm64: 'arm64',
  x64: 'x64',
  amd64: 'x64',
  ia32: 'ia32',
  arm: 'arm',
  ppc64: 'ppc64',
  riscv64: 'riscv64',
  s390x: 's390x',
  loong64: 'loong64',
}

/**
 * The `os`/`cpu`/`libc` a platform package's name says (`@biomejs/cli-linux-x64-musl`), or undefined for a name that
 * names no platform.
 * @param {string} name
 */
function platformOf(name) {
  const parts = (name.split('/').pop() ?? '').split('-')
  const os = parts.map((p) => OS[p]).find(Boolean)
  const cpu = parts.map((p) => CPU[p]).find(Boolean)
  return os && cpu ? { os, cpu, libc: parts.includes('musl') ? 'musl' : undefined } : undefined
}

let added = 0
for (const [path, entry] of Object.entries(lock.packages)) {
  for (const [name, version] of Object.entries(entry.optionalDependencies ?? {})) {
    const base = path ? `${path}/node_modules/${name}` : `node_modules/${name}`
    const hoisted = `node_modules/${name}`
    if (lock.packages[base] || lock.packages[hoisted]) continue
    const platform = platformOf(name)
    if (!platform) continue
    lock.packages[hoisted] = {
      version,
      ...(entry.dev ? { dev: true } : {}),
      optional: true,
      os: [platform.os],
      cpu: [platform.cpu],
      ...(platform.libc ? { libc: [platform.libc] } : {}),
    }
    added++
  }
}
const sorted = Object.fromEntries(
  Object.entries(lock.packages).sort(([a], [b]) => (a === '' ? -1 : b === '' ? 1 : a.localeCompare(b))),
)
lock.packages = sorted
writeFileSync(file, `${JSON.stringify(lock, null, 2)}\n`)
console.log(`[lock-platforms] added ${added} platform entries`)
