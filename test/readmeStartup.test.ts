import { type ChildProcess, spawn } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, onTestFinished, test } from 'vitest'

// The READMEs show what `npm start` prints (issue 28: the sample had drifted from the real output). Their sample
// blocks are compared, line by line, with what the built server and scripts/build.mjs really print; only what
// changes from run to run (ports, the data folder, build times) is normalised.

const root = fileURLToPath(new URL('..', import.meta.url))
const read = (path: string) => readFileSync(join(root, path), 'utf8')

/** The fenced code blocks of a markdown text, each as its lines. */
const codeBlocks = (markdown: string) =>
  [...markdown.matchAll(/^```[^\n]*\n([\s\S]*?)^```$/gm)].map((match) =>
    (match[1] ?? '').replace(/\n$/, '').split('\n'),
  )

/** The lines from `Pairlink is running` to the `chain` line: the server's start-up message. */
const startupLines = (lines: string[]) => {
  const first = lines.findIndex((line) => line.trim() === 'Pairlink is running')
  const last = lines.findIndex((line, index) => index > first && line.trimStart().startsWith('chain '))
  return first < 0 || last < 0 ? [] : lines.slice(first, last + 1)
}

/** Ports (`:8080`, `:…`, the real one), the data folder and build times, which differ between runs. */
const normalise = (lines: string[]) =>
  lines.map((line) =>
    line
      .replace(/(127\.0\.0\.1):(\d+|…)/g, '$1:PORT')
      .replace(/(embedded \(SQLite\) in ).*/, '$1DATA_DIR')
      .replace(/ built in \d+(\.\d+)? s$/, ' built in N s'),
  )

// Start-up spawns anvil and opens a database: slow on a loaded machine. The bound only ends a run that hangs.
const SLOW = { timeout: 120_000 }

/** Runs the built server (as `npm start` does) until it has printed its start-up message, which it returns. */
async function serverStartup(env: Record<string, string> = {}): Promise<string[]> {
  const dataDir = mkdtempSync(join(tmpdir(), 'pairlink-readme-'))
  const child: ChildProcess = spawn(process.execPath, [join(root, 'apps/server/dist/main.js')], {
    env: { ...process.env, PORT: '0', HOST: '127.0.0.1', DATA_DIR: dataDir, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()))
  // Stopped by its PID; SIGTERM, so that it stops the anvil it started.
  onTestFinished(async () => {
    if (child.exitCode === null && child.signalCode === null && child.pid) process.kill(child.pid, 'SIGTERM')
    await exited
    rmSync(dataDir, { recursive: true, force: true })
  })
  let out = ''
  return new Promise((resolve, reject) => {
    const check = () => {
      const lines = startupLines(out.split('\n'))
      if (lines.length > 0) resolve(lines)
    }
    child.stdout?.on('data', (chunk: Buffer) => {
      out += chunk.toString()
      check()
    })
    child.stderr?.on('data', (chunk: Buffer) => {
      out += chunk.toString()
    })
    void exited.then(() => reject(new Error(`the server exited before its start-up message:\n${out}`)))
  })
}

describe('the READMEs print what npm start prints', () => {
  const readme = codeBlocks(read('README.md')).find((lines) =>
    lines.some((line) => line.includes('Pairlink is running')),
  )
  const serverReadme = codeBlocks(read('apps/server/README.md'))

  test('precondition: the samples are found', () => {
    expect(readme).toBeDefined()
    expect(startupLines(readme ?? [])).not.toEqual([])
  })

  test("README.md and apps/server/README.md: the server's start-up message", SLOW, async () => {
    const real = normalise(await serverStartup())
    expect(normalise(startupLines(readme ?? []))).toEqual(real)
    const server = serverReadme.find((lines) => lines.some((line) => line.includes('Pairlink is running')))
    expect(normalise(startupLines(server ?? []))).toEqual(real)
  })

  test('apps/server/README.md: the relay lines with WALLETCONNECT_PROJECT_ID', SLOW, async () => {
    // The server's look at WalletConnect's relay runs after the message and only warns offline: it is not waited for.
    const real = normalise(
      await serverStartup({ WALLETCONNECT_PROJECT_ID: '0123456789abcdef0123456789abcdef' }),
    )
    const relay = real.findIndex((line) => line.trimStart().startsWith('relay '))
    const sample = serverReadme.find((lines) => lines[0]?.trimStart().startsWith('relay '))
    expect(normalise(sample ?? [])).toEqual(real.slice(relay, relay + 2))
  })

  test("README.md: a first start's build lines are scripts/build.mjs's, one per app it builds", () => {
    const lines = readme ?? []
    const built = lines.filter((line) => line.startsWith('[build] '))
    const apps = (JSON.parse(read('package.json')) as { workspaces: string[] }).workspaces.filter(
      (dir) =>
        dir.startsWith('apps/') &&
        (JSON.parse(read(`${dir}/package.json`)) as { scripts?: Record<string, string> }).scripts?.build,
    )
    expect(normalise(built)).toEqual(apps.map((app) => `[build] ${app} built in N s`))
    // Nothing else comes before the start-up message but npm's own two lines naming the script.
    const before = lines.slice(
      0,
      lines.findIndex((line) => line.trim() === 'Pairlink is running'),
    )
    expect(
      before.filter((line) => line !== '' && !line.startsWith('[build] ') && !line.startsWith('> ')),
    ).toEqual([])
  })
})
