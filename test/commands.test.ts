import { execFileSync, spawnSync } from 'node:child_process'
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  realpathSync,
  rmSync,
  writeFileSync,
} from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, test } from 'vitest'

const root = fileURLToPath(new URL('..', import.meta.url))

type Manifest = { name: string; bin?: Record<string, string>; scripts?: Record<string, string> }
const readManifest = (dir: string): Manifest =>
  JSON.parse(readFileSync(join(root, dir, 'package.json'), 'utf8')) as Manifest

const rootManifest = readManifest('.')
const workspaces = (rootManifest as Manifest & { workspaces: string[] }).workspaces

/** Every bin a workspace declares: its name, the workspace (folder and package name) and the target path from the root. */
const workspaceBins = workspaces.flatMap((dir) =>
  Object.entries(readManifest(dir).bin ?? {}).map(([name, target]) => ({
    name,
    dir,
    pkg: readManifest(dir).name,
    target: join(dir, target).replaceAll('\\', '/'),
  })),
)

/** Git's mode of each tracked file (`100755` for an executable), by path. */
const trackedModes = new Map(
  execFileSync('git', ['ls-files', '-s'], { cwd: root, encoding: 'utf8' })
    .split('\n')
    .filter(Boolean)
    .map((line) => {
      const [meta = '', path = ''] = line.split('\t')
      return [path, meta.split(' ')[0]] as const
    }),
)

/**
 * The `npx X` and `npm run X` (`npm start`, `npm test`) commands a markdown text names, with the workspace of
 * `-w path` when given.
 */
function namedCommands(markdown: string): { npx: string[]; scripts: { name: string; workspace?: string }[] } {
  const npx = [...markdown.matchAll(/\bnpx +(?:--?[\w-]+ +)*([@a-z][\w./@-]*)/g)].map((m) => m[1] ?? '')
  const scripts = [
    ...markdown.matchAll(/\bnpm +(?:run +([\w:-]+)|(start|test)\b)(?: +-w +([\w./-]+))?/g),
  ].map((m) => ({ name: m[1] ?? m[2] ?? '', ...(m[3] && { workspace: m[3] }) }))
  return { npx, scripts }
}

describe('namedCommands', () => {
  test('default: finds npx names and npm scripts, with their workspace', () => {
    const markdown =
      'Run `npm start`, `npm run build -w apps/web`, `npx --no-install pairlink-wallet --help`.'
    expect(namedCommands(markdown)).toEqual({
      npx: ['pairlink-wallet'],
      scripts: [{ name: 'start' }, { name: 'build', workspace: 'apps/web' }],
    })
  })
})

describe('every bin of every workspace is a committed, executable launcher', () => {
  test('precondition: the CLIs the README names are declared', () => {
    expect(workspaceBins.map((bin) => bin.name)).toEqual(
      expect.arrayContaining(['pairlink-bridge', 'pairlink-wallet', 'pairlink-server']),
    )
  })

  // npm links a bin at `npm ci` only when its target exists then; a build output (dist/) does not on a fresh clone.
  test.each(workspaceBins)('$name → $target', ({ target }) => {
    expect(trackedModes.get(target), `${target} is not tracked by git`).toBe('100755')
    expect(readFileSync(join(root, target), 'utf8')).toMatch(/^#!\/usr\/bin\/env node\n/)
  })

  test.each(workspaceBins)('behavior: node_modules/.bin/$name is linked to $target', ({ name, target }) => {
    expect(realpathSync(join(root, 'node_modules/.bin', name))).toBe(realpathSync(join(root, target)))
  })
})

describe('every command a tracked markdown file names exists', () => {
  const files = execFileSync('git', ['ls-files', '*.md'], { cwd: root, encoding: 'utf8' })
    .split('\n')
    .filter((file) => file !== '' && existsSync(join(root, file)))
  const named = files.map((file) => ({ file, ...namedCommands(readFileSync(join(root, file), 'utf8')) }))

  test('precondition: the README names the CLIs and scripts', () => {
    const readme = named.find((entry) => entry.file === 'README.md')
    expect(readme?.npx).toEqual(expect.arrayContaining(['pairlink-wallet', 'pairlink-bridge']))
    expect(readme?.scripts.map((s) => s.name)).toEqual(expect.arrayContaining(['start', 'test', 'build']))
  })

  test.each(named.filter((entry) => entry.npx.length + entry.scripts.length > 0))(
    '$file',
    ({ file, npx, scripts }) => {
      for (const name of npx) {
        // `npx @pairlink/server` runs the bin of the package of that name, as it will from the registry.
        const own = workspaceBins.some((bin) => bin.name === name || bin.pkg === name)
        // A dependency's bin is linked by npm ci; a workspace's is checked above.
        expect(own || existsSync(join(root, 'node_modules/.bin', name)), `npx ${name}`).toBe(true)
      }
      // A script named in a workspace's README may be that workspace's or the root's.
      const here = workspaces.find((dir) => file.startsWith(`${dir}/`))
      for (const { name, workspace } of scripts) {
        const candidates = workspace ? [workspace] : ['.', ...(here ? [here] : [])]
        const found = candidates.some((dir) => readManifest(dir).scripts?.[name] !== undefined)
        expect(found, `npm run ${name}${workspace ? ` -w ${workspace}` : ''}`).toBe(true)
      }
    },
  )
})

describe('npx pairlink-wallet', () => {
  test('default: --help from the repository root runs the built CLI, never the registry', () => {
    expect(existsSync(join(root, 'apps/wallet/dist-cli/cli.js')), 'run `npm run build` first').toBe(true)
    const result = spawnSync('npx', ['--no-install', 'pairlink-wallet', '--help'], {
      cwd: root,
      encoding: 'utf8',
      env: { ...process.env, npm_config_offline: 'true' },
    })
    expect(result.stdout).toContain("Usage: pairlink-wallet --uri 'wc:…'")
    expect(result.status).toBe(0)
  })

  test('error: before a build, the launcher says how to build', () => {
    const dir = mkdtempSync(join(tmpdir(), 'pairlink-wallet-bin-'))
    try {
      const launcher = join(dir, 'bin/pairlink-wallet.js')
      mkdirSync(dirname(launcher))
      copyFileSync(join(root, 'apps/wallet/bin/pairlink-wallet.js'), launcher)
      const result = spawnSync(process.execPath, [launcher, '--help'], { encoding: 'utf8' })
      expect(result.stderr).toBe('pairlink-wallet is not built yet: run `npm run build` first.\n')
      expect(result.status).toBe(1)
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })
})

describe('a fresh clone: only tracked files, nothing built', () => {
  // npm itself decides which bins it links; a clone is modelled by the tracked files of each bin-bearing workspace,
  // with its dependencies left out (they are not what links a bin), and installed offline.
  test('behavior: an install links every workspace bin, and npx runs it from the clone, not the registry', () => {
    const dir = mkdtempSync(join(tmpdir(), 'pairlink-clone-'))
    try {
      const dirs = [...new Set(workspaceBins.map((bin) => bin.dir))]
      writeFileSync(
        join(dir, 'package.json'),
        JSON.stringify({ name: 'clone', private: true, workspaces: dirs }),
      )
      for (const workspace of dirs) {
        const { name, bin } = readManifest(workspace)
        mkdirSync(join(dir, workspace), { recursive: true })
        writeFileSync(
          join(dir, workspace, 'package.json'),
          JSON.stringify({ name, version: '0.0.0', type: 'module', bin }),
        )
      }
      for (const { target } of workspaceBins) {
        if (!trackedModes.has(target)) continue
        mkdirSync(dirname(join(dir, target)), { recursive: true })
        copyFileSync(join(root, target), join(dir, target))
      }
      const npmOptions = {
        cwd: dir,
        encoding: 'utf8' as const,
        env: { ...process.env, npm_config_offline: 'true' },
      }
      const install = spawnSync('npm', ['install', '--ignore-scripts', '--no-audit', '--no-fund'], npmOptions)
      expect(install.status, install.stderr).toBe(0)
      for (const { name } of workspaceBins) {
        expect(existsSync(join(dir, 'node_modules/.bin', name)), `node_modules/.bin/${name}`).toBe(true)
      }
      const wallet = spawnSync('npx', ['--no-install', 'pairlink-wallet', '--help'], npmOptions)
      expect(wallet.stderr).toContain('pairlink-wallet is not built yet: run `npm run build` first.')
      expect(wallet.stderr).not.toContain('npm error')
      expect(wallet.status).toBe(1)
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })
})
