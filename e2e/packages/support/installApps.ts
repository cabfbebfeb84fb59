import { type ChildProcess, spawn } from 'node:child_process'
import {
  cpSync,
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  statfsSync,
  writeFileSync,
} from 'node:fs'
import { freemem, tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'

const root = fileURLToPath(new URL('../../../', import.meta.url))
const templates = fileURLToPath(new URL('../apps/', import.meta.url))

/** What the three apps take on disk (node_modules and builds, ~1.5 GB) with a margin. */
const APPS_SIZE = 4e9
/** `statfs`'s type of a tmpfs (Linux's TMPFS_MAGIC). */
const TMPFS = 0x01021994

/**
 * A new temporary folder for the apps: in /dev/shm when it is a RAM disk (tmpfs) with room for them and the memory
 * to back it, else in the OS's temporary folder. Their node_modules are ~150 000 files: a RAM disk writes them
 * faster and deletes them in seconds, where a disk mounted with `discard` (this repository's CI machine's) discards
 * each file's blocks as it is deleted and takes minutes.
 */
export function createWorkFolder(): string {
  const shm = '/dev/shm'
  const stats = existsSync(shm) ? statfsSync(shm) : undefined
  const roomy = stats?.type === TMPFS && stats.bavail * stats.bsize > APPS_SIZE && freemem() > APPS_SIZE
  return mkdtempSync(join(roomy ? shm : tmpdir(), 'pairlink-install-'))
}

/** What a command printed, for failure messages. */
class CommandError extends Error {
  override name = 'CommandError'
}

/**
 * Runs a command to its end (killed after `timeout` ms), without blocking the test runner; resolves with what it
 * printed, rejects with it when it fails. npm and the frameworks' CLIs print no telemetry notice or colours here.
 */
export function run(command: string, args: string[], cwd: string, timeout = 300_000): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd, env: quietEnv(), stdio: ['ignore', 'pipe', 'pipe'] })
    let output = ''
    child.stdout?.on('data', (chunk: Buffer) => {
      output += chunk.toString()
    })
    child.stderr?.on('data', (chunk: Buffer) => {
      output += chunk.toString()
    })
    const timer = setTimeout(() => child.kill('SIGKILL'), timeout)
    child.on('close', (code) => {
      clearTimeout(timer)
      if (code === 0) resolve(output)
      else reject(new CommandError(`${command} ${args.join(' ')} exited with ${code} in ${cwd}:\n${output}`))
    })
  })
}

const quietEnv = () => ({
  ...process.env,
  NEXT_TELEMETRY_DISABLED: '1',
  NO_COLOR: '1',
  FORCE_COLOR: '0',
  npm_config_audit: 'false',
  npm_config_fund: 'false',
  npm_config_update_notifier: 'false',
})

/** The workspaces npm would publish, by name, with their folders. */
export function publishedPackages(): { name: string; dir: string }[] {
  return readdirSync(join(root, 'packages'))
    .map((dir) => ({
      dir: join(root, 'packages', dir),
      pkg: JSON.parse(readFileSync(join(root, 'packages', dir, 'package.json'), 'utf8')),
    }))
    .filter(({ pkg }) => !pkg.private)
    .map(({ dir, pkg }) => ({ name: pkg.name as string, dir }))
}

/**
 * `npm pack` of every published package (from its build, as `npm publish` would send it) into `destination`, in one
 * npm run over their workspaces; resolves with each tarball's path by package name.
 */
export function packAll(destination: string): Promise<Record<string, string>> {
  return packWorkspaces(
    publishedPackages().map(({ name }) => name),
    destination,
  )
}

/**
 * `names` with the Pairlink packages they depend on at run time (`dependencies`, transitively): what an install of
 * them from tarballs needs packed, since the registry has none of them at this version.
 */
export function withPairlinkDependencies(names: string[]): string[] {
  const manifests = new Map(
    workspaceDirs().map((dir) => {
      const pkg = JSON.parse(readFileSync(join(root, dir, 'package.json'), 'utf8'))
      return [pkg.name as string, pkg as { dependencies?: Record<string, string> }]
    }),
  )
  const all = new Set<string>()
  const add = (name: string) => {
    if (all.has(name)) return
    all.add(name)
    for (const dependency of Object.keys(manifests.get(name)?.dependencies ?? {}))
      if (manifests.has(dependency)) add(dependency)
  }
  for (const name of names) add(name)
  return [...all].sort()
}

/** The workspace folders the root package.json names. */
function workspaceDirs(): string[] {
  return JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).workspaces as string[]
}

/**
 * `npm pack` of the workspaces `names` (prepack scripts run, as for `npm publish`) into `destination`, in one npm
 * run; resolves with each tarball's path by package name.
 */
export async function packWorkspaces(names: string[], destination: string): Promise<Record<string, string>> {
  const workspaces = names.flatMap((name) => ['--workspace', name])
  const output = await run('npm', ['pack', ...workspaces, '--pack-destination', destination, '--json'], root)
  const packed = JSON.parse(output.slice(output.indexOf('['))) as { name: string; filename: string }[]
  const tarballs = Object.fromEntries(packed.map(({ name, filename }) => [name, join(destination, filename)]))
  const missing = names.filter((name) => !tarballs[name])
  if (missing.length > 0)
    throw new CommandError(`npm pack made no tarball of ${missing.join(', ')}:\n${output}`)
  return tarballs
}

/** A template of `e2e/packages/apps`. */
export type Template = 'vite' | 'next' | 'rainbowkit'

type CreateAppParameters = {
  template: Template
  directory: string
  tarballs: Record<string, string>
  packages: string[]
  dependencies: Record<string, string>
  devDependencies: Record<string, string>
  scripts: Record<string, string>
  /** npm `overrides`: versions forced on the app's dependencies' own dependencies. */
  overrides?: Record<string, string>
}

/** An app for {@link createAppsInTurn}: {@link createApp}'s parameters but its folder and the tarballs. */
export type AppParameters = Omit<CreateAppParameters, 'directory' | 'tarballs'>

/**
 * {@link createApp} of each of `apps` in turn, in the background, each in `work`'s folder named after its template:
 * while a test builds and drives one app, the next one installs (neither keeps two CPUs busy on its own), and no
 * more than one install runs at a time. `installed` resolves with an app's folder once it is installed (or rejects
 * with why not); `settled` once every install has ended.
 */
export function createAppsInTurn(
  work: string,
  tarballs: Record<string, string>,
  apps: AppParameters[],
): { installed: Map<Template, Promise<string>>; settled: Promise<void> } {
  const installed = new Map<Template, Promise<string>>()
  let settled = Promise.resolve()
  for (const app of apps) {
    const directory = join(work, app.template)
    const install = settled.then(() => createApp({ ...app, directory, tarballs })).then(() => directory)
    // Handled here too: an app whose test never runs (an earlier one failed) must not fail the run with an
    // unhandled rejection, nor stop the installs after it.
    settled = install.then(
      () => {},
      () => {},
    )
    installed.set(app.template, install)
  }
  return { installed, settled }
}

/**
 * A new app from `template` (a folder of `e2e/packages/apps`) in `directory`: its files, a package.json naming
 * `packages` (each Pairlink package by its tarball, the rest by version, from the registry), then `npm install`.
 */
async function createApp(parameters: CreateAppParameters): Promise<void> {
  const { template, directory, tarballs } = parameters
  cpSync(join(templates, template), directory, { recursive: true })
  const pairlink = Object.fromEntries(
    parameters.packages.map((name) => {
      const tarball = tarballs[name]
      if (!tarball) throw new Error(`${name} was not packed`)
      return [name, `file:${tarball}`]
    }),
  )
  const pkg = {
    name: `pairlink-install-${template}`,
    private: true,
    type: 'module',
    scripts: parameters.scripts,
    dependencies: { ...pairlink, ...parameters.dependencies },
    devDependencies: parameters.devDependencies,
    ...(parameters.overrides ? { overrides: parameters.overrides } : {}),
  }
  writeFileSync(join(directory, 'package.json'), `${JSON.stringify(pkg, null, 2)}\n`)
  await run('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund'], directory)
}

/** A server an app runs (`vite preview`, `next start`) on 127.0.0.1, until {@link stopServer}. */
export function startServer(command: string, args: string[], cwd: string): ChildProcess {
  // Its own process group, so stopping it stops what it started too.
  return spawn(command, args, { cwd, env: quietEnv(), stdio: 'ignore', detached: true })
}

/** Stops a server started by {@link startServer} by its PID (and its group), waiting for it to exit. */
export async function stopServer(child: ChildProcess | undefined): Promise<void> {
  if (!child?.pid || child.exitCode !== null) return
  const exited = new Promise((resolve) => child.once('exit', resolve))
  try {
    process.kill(-child.pid, 'SIGTERM')
  } catch {
    return
  }
  await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 5_000))])
  if (child.exitCode === null) process.kill(-child.pid, 'SIGKILL')
}

/** Resolves once `url` answers 200 (a server starting), polling every 200 ms for at most `timeout` ms. */
export async function untilServing(url: string, timeout = 60_000): Promise<void> {
  const deadline = Date.now() + timeout
  for (;;) {
    const ok = await fetch(url).then(
      (response) => response.ok,
      () => false,
    )
    if (ok) return
    if (Date.now() > deadline) throw new Error(`${url} did not answer within ${timeout} ms`)
    await new Promise((resolve) => setTimeout(resolve, 200))
  }
}
