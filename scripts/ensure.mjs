#!/usr/bin/env node
// Installs what this checkout needs, idempotently: npm packages when package-lock.json changed since the last
// install (this script's or npm's own), and (for tests) the Debian packages the suites drive: Chromium, redis-server
// and PostgreSQL. Quick when nothing changed: one hash of the lock file and a few `which` look-ups.
import { execFileSync, spawnSync } from 'node:child_process'
import { createHash } from 'node:crypto'
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { root } from './lib.mjs'

const purpose = process.argv.includes('--for=start') ? 'start' : 'test'
const lock = join(root, 'package-lock.json')
const stamp = join(root, 'node_modules', '.pairlink-install')
const digest = createHash('sha256').update(readFileSync(lock)).digest('hex')

// The root's `postinstall` (`--installed`): an `npm ci` or `npm install` that just ended records the lock file it
// installed, so that `npm test` right after one (CI's fresh clone) does not delete and install everything again.
if (process.argv.includes('--installed')) {
  writeFileSync(stamp, digest)
  process.exit(0)
}

if (!existsSync(stamp) || readFileSync(stamp, 'utf8') !== digest) {
  console.log('[ensure] installing npm packages (npm ci)…')
  const r = spawnSync('npm', ['ci', '--no-audit', '--no-fund'], { cwd: root, stdio: 'inherit' })
  if (r.status !== 0) {
    console.error('[ensure] npm ci failed')
    process.exit(r.status ?? 1)
  }
  writeFileSync(stamp, digest)
}

/** Debian's PostgreSQL keeps its server binaries under /usr/lib/postgresql/<version>/bin, off the PATH. */
function postgresInitdb() {
  const base = '/usr/lib/postgresql'
  return existsSync(base) && readdirSync(base).some((v) => existsSync(join(base, v, 'bin', 'initdb')))
}

/**
 * Debian packages the tests drive, keyed by the file that proves they are installed; `unless`: not needed when that
 * variable is set, `when`: needed only when it is.
 * @type {{ file: string | (() => boolean), pkg: string, unless?: string, when?: string }[]}
 */
const system =
  purpose === 'test'
    ? [
        { file: '/usr/bin/chromium', pkg: 'chromium' },
        // Japanese, Korean and Chinese glyphs: the languages spec's screenshots (docs/screenshots/i18n-ja-*.png) show
        // the pages as a person reads them, not as boxes.
        { file: '/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc', pkg: 'fonts-noto-cjk' },
        { file: 'redis-server', pkg: 'redis-server', unless: 'REDIS_URL' },
        { file: postgresInitdb, pkg: 'postgresql', unless: 'DATABASE_URL' },
        // The opt-in container test (test/container.image.test.ts) builds its base image and the Dockerfile.
        { file: 'podman', pkg: 'podman', when: 'PAIRLINK_CONTAINER_TEST' },
        { file: 'runc', pkg: 'runc', when: 'PAIRLINK_CONTAINER_TEST' },
        { file: 'debootstrap', pkg: 'debootstrap', when: 'PAIRLINK_CONTAINER_TEST' },
      ]
    : []

/** @param {string | (() => boolean)} file a path, a command on the PATH, or a check */
const has = (file) =>
  typeof file === 'function'
    ? file()
    : file.startsWith('/')
      ? existsSync(file)
      : spawnSync('which', [file], { stdio: 'ignore' }).status === 0
const missing = system
  .filter((s) => !(s.unless && process.env[s.unless]) && !(s.when && !process.env[s.when]) && !has(s.file))
  .map((s) => s.pkg)

if (missing.length > 0) {
  const isRoot = typeof process.getuid === 'function' && process.getuid() === 0
  if (!isRoot || !has('apt-get')) {
    console.error(
      `[ensure] missing Debian packages: ${missing.join(' ')} — install them with apt-get (as root)`,
    )
    process.exit(1)
  }
  console.log(`[ensure] installing Debian packages: ${missing.join(' ')}…`)
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' }
  execFileSync('apt-get', ['update', '-qq'], { stdio: 'inherit', env })
  execFileSync('apt-get', ['install', '-y', '-qq', '--no-install-recommends', ...missing], {
    stdio: 'inherit',
    env,
  })
}
