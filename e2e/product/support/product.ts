import { type ChildProcess, spawn } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'

const root = fileURLToPath(new URL('../../../', import.meta.url))

/** A running product server (with its own anvil) on 127.0.0.1. */
export type Product = {
  /** `http://127.0.0.1:PORT`, no trailing slash: the web app, the bridge and the API. */
  origin: string
  /** The JSON-RPC proxy of the dev chain. */
  rpcUrl: string
  /** Everything the server printed, for failure messages. */
  output: () => string
  stop: () => Promise<void>
}

/**
 * Starts `node apps/server/dist/main.js` on a free port (PORT=0) with a throw-away data directory and waits for
 * the URLs it prints. `npm test` builds it first; run `npm run build` before running this suite on its own.
 */
export async function startProduct(): Promise<Product> {
  const dataDir = mkdtempSync(join(tmpdir(), 'pairlink-e2e-'))
  const child = spawn(process.execPath, [join(root, 'apps/server/dist/main.js')], {
    cwd: root,
    env: { ...process.env, PORT: '0', HOST: '127.0.0.1', DATA_DIR: dataDir, LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let output = ''
  child.stdout?.on('data', (chunk: Buffer) => {
    output += chunk.toString()
  })
  child.stderr?.on('data', (chunk: Buffer) => {
    output += chunk.toString()
  })
  const origin = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`The server did not start within 60 s:\n${output}`)),
      60_000,
    )
    const check = () => {
      const match = /web app\s+(http:\/\/127\.0\.0\.1:\d+)\//.exec(output)
      if (match?.[1]) {
        clearTimeout(timer)
        resolve(match[1])
      }
    }
    child.stdout?.on('data', check)
    child.once('exit', (code) => {
      clearTimeout(timer)
      reject(new Error(`The server exited with code ${code}:\n${output}`))
    })
  })
  return {
    origin,
    rpcUrl: `${origin}/rpc`,
    output: () => output,
    stop: async () => {
      await stopChild(child)
      rmSync(dataDir, { recursive: true, force: true })
    },
  }
}

/** SIGTERM (the server stops its anvil), then SIGKILL after 10 s; by PID only. */
export async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()))
  child.kill('SIGTERM')
  const timer = setTimeout(() => child.kill('SIGKILL'), 10_000)
  await exited
  clearTimeout(timer)
}
