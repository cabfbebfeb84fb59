#!/usr/bin/env node
// Checks what npm would publish: `npm pack --dry-run` of every workspace that is not private (in one npm run, so the
// server's prepack copies the built apps in as a real pack does), then, per tarball: no `.tsbuildinfo`, no test file;
// README.md, CHANGELOG.md and LICENSE (the repository's) shipped; every `files` entry, `bin`, `main`, `types` and
// `exports` target present. Prints one line per package with its size. Needs the build. `npm run tarballs`.
import { spawnSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { publishedWorkspaces, root } from './lib.mjs'

/** Tests and their helpers: `x.test.ts`, `x.test-d.ts`, `x.spec.ts`, files under a `test/` or `__tests__/` folder. */
const TEST_FILE = /(^|\/)(test|tests|__tests__)\/|\.(test|spec)\.[cm]?[jt]sx?$|\.test-d\.ts$/

const published = publishedWorkspaces()
const r = spawnSync(
  'npm',
  ['pack', '--dry-run', '--json', ...published.flatMap(({ pkg }) => ['--workspace', pkg.name])],
  { cwd: root, encoding: 'utf8', env: { ...process.env, npm_config_loglevel: 'error' } },
)
if (r.status !== 0) {
  console.error(`[tarballs] npm pack --dry-run failed:\n${r.stdout}${r.stderr}`)
  process.exit(1)
}
/** @type {{ name: string, size: number, unpackedSize: number, files: { path: string }[] }[]} */
const packs = JSON.parse(r.stdout.slice(r.stdout.indexOf('[')))
const license = readFileSync(join(root, 'LICENSE'), 'utf8')

let failed = false
for (const { dir, pkg } of published) {
  const pack = packs.find(({ name }) => name === pkg.name)
  const problems = pack
    ? check(
        pkg,
        dir,
        pack.files.map(({ path }) => path),
      )
    : ['npm packed no tarball']
  const size = pack
    ? `${pack.files.length} files, ${kB(pack.size)} packed, ${kB(pack.unpackedSize)} unpacked`
    : ''
  console.log(`[tarballs] ${pkg.name}: ${problems.length === 0 ? 'ok' : 'problems'} (${size})`)
  for (const problem of problems) console.log(`  ${problem}`)
  failed ||= problems.length > 0
}
process.exit(failed ? 1 : 0)

/**
 * What is wrong with the tarball of `pkg` (in `dir`) holding `paths`.
 * @param {Record<string, any>} pkg
 * @param {string} dir
 * @param {string[]} paths
 */
function check(pkg, dir, paths) {
  const problems = []
  for (const path of paths) {
    if (path.endsWith('.tsbuildinfo')) problems.push(`ships ${path} (a build cache)`)
    if (TEST_FILE.test(path)) problems.push(`ships ${path} (a test file)`)
  }
  for (const file of ['README.md', 'CHANGELOG.md', 'LICENSE'])
    if (!paths.includes(file)) problems.push(`misses ${file}`)
  if (paths.includes('LICENSE') && readFileSync(join(root, dir, 'LICENSE'), 'utf8') !== license)
    problems.push('LICENSE differs from the repository’s')
  for (const entry of pkg.files ?? []) {
    if (entry.startsWith('!')) continue
    const pattern = glob(entry.replace(/^\.\//, '').replace(/\/$/, ''))
    if (!paths.some((path) => pattern.test(path))) problems.push(`"files" entry ${entry} matches nothing`)
  }
  const targets = [
    ...Object.values(typeof pkg.bin === 'string' ? { [pkg.name]: pkg.bin } : (pkg.bin ?? {})),
    pkg.main,
    pkg.types,
    ...exportTargets(pkg.exports),
  ]
  for (const target of targets) {
    if (typeof target !== 'string') continue
    const path = target.replace(/^\.\//, '')
    if (!paths.includes(path)) problems.push(`${target} (bin, main, types or exports) is not in the tarball`)
  }
  return problems
}

/**
 * A `files` entry as npm reads it: a path (a folder means everything in it) or a glob (`*`, `**`).
 * @param {string} entry
 */
function glob(entry) {
  const source = entry
    .split(/(\*\*\/|\*\*|\*)/)
    .map((part) =>
      part === '**/'
        ? '(?:.*/)?'
        : part === '**'
          ? '.*'
          : part === '*'
            ? '[^/]*'
            : part.replace(/[.+?^${}()|[\]\\]/g, '\\$&'),
    )
    .join('')
  return new RegExp(`^${source}(?:/.*)?$`)
}

/**
 * Every file an `exports` map points at (conditions and subpaths flattened).
 * @param {unknown} exports
 * @returns {string[]}
 */
function exportTargets(exports) {
  if (typeof exports === 'string') return [exports]
  if (!exports || typeof exports !== 'object') return []
  return Object.values(exports).flatMap(exportTargets)
}

/** @param {number} bytes */
function kB(bytes) {
  return `${(bytes / 1000).toFixed(1)} kB`
}
