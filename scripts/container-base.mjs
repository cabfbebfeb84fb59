#!/usr/bin/env node
// Makes a Node 20 base image where no image registry is reachable: a minimal Debian bookworm from the apt mirror this
// machine uses (debootstrap), this machine's own node binary and npm copied in where the official image keeps them
// (/usr/local), imported with `podman import`. Build the Dockerfile on it with `--build-arg BASE=<tag>`. Needs root,
// debootstrap and podman. Usage: node scripts/container-base.mjs [tag] (default localhost/pairlink-node:20-bookworm).
import { execFileSync } from 'node:child_process'
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
} from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

const tag = process.argv[2] ?? 'localhost/pairlink-node:20-bookworm'
const rootfs = mkdtempSync(join(tmpdir(), 'pairlink-rootfs-'))

/** The first Debian mirror apt is configured with (deb822 `URIs:` or one-line `deb` entries), else Debian's own. */
function debianMirror() {
  const files = ['/etc/apt/sources.list']
  const dir = '/etc/apt/sources.list.d'
  if (existsSync(dir)) files.push(...readdirSync(dir).map((name) => join(dir, name)))
  for (const file of files.filter((path) => existsSync(path))) {
    const text = readFileSync(file, 'utf8')
    const deb822 = text.match(/^URIs:\s*(\S+\/debian)\/?\s*$/m)
    const oneLine = text.match(/^deb\s+(?:\[[^\]]*\]\s+)?(\S+\/debian)\/?\s+bookworm\s/m)
    const found = deb822?.[1] ?? oneLine?.[1]
    if (found) return found
  }
  return 'http://deb.debian.org/debian'
}

const run = (/** @type {string} */ command, /** @type {string[]} */ args) =>
  execFileSync(command, args, { stdio: ['ignore', 'inherit', 'inherit'] })

try {
  run('debootstrap', ['--variant=minbase', 'bookworm', rootfs, debianMirror()])
  const local = join(rootfs, 'usr/local')
  mkdirSync(join(local, 'bin'), { recursive: true })
  mkdirSync(join(local, 'lib/node_modules'), { recursive: true })
  cpSync(process.execPath, join(local, 'bin/node'))
  const npmRoot = execFileSync('npm', ['root', '--global'], { encoding: 'utf8' }).trim()
  cpSync(join(npmRoot, 'npm'), join(local, 'lib/node_modules/npm'), { recursive: true })
  symlinkSync('../lib/node_modules/npm/bin/npm-cli.js', join(local, 'bin/npm'))
  symlinkSync('../lib/node_modules/npm/bin/npx-cli.js', join(local, 'bin/npx'))
  // As the official slim image: no package lists or downloaded packages kept.
  for (const dir of ['var/lib/apt/lists', 'var/cache/apt/archives'])
    for (const entry of readdirSync(join(rootfs, dir)).filter((name) => name !== 'partial'))
      rmSync(join(rootfs, dir, entry), { recursive: true, force: true })
  const archive = `${rootfs}.tar`
  run('tar', ['-C', rootfs, '-cf', archive, '.'])
  try {
    run('podman', [
      'import',
      '--quiet',
      '--change',
      'ENV=PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin',
      '--change',
      `ENV=NODE_VERSION=${process.versions.node}`,
      '--change',
      'CMD=["node"]',
      archive,
      tag,
    ])
  } finally {
    rmSync(archive, { force: true })
  }
  console.log(`[container-base] ${tag}: Debian bookworm (minbase) with Node ${process.version}`)
} finally {
  rmSync(rootfs, { recursive: true, force: true })
}
