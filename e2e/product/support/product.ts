import { type ChildProcess, spawn } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { test } from '@playwright/test'

const root = fileURLToPath(new URL('../../../', import.meta.url))

/** A running product server (with its own anvil) on 127.0.0.1; `env` adds to or overrides its environment. */
export type Product = {
  /** `http://127.0.0.1:PORT` (or `PUBLIC_URL`), no trailing slash: the web app, the bridge and the API. */
  origin: string
  /** The JSON-RPC proxy of the dev chain. */
  rpcUrl: string
  /** Everything the server printed, for failure messages. */
  output: () => string
  stop: () => Promise<void>
}

/**
 * Time a server gets to print its URLs: start-up spawns anvil and opens a database, slow on a loaded machine. The
 * specs' `beforeAll` allows {@link PRODUCT_HOOK_TIMEOUT}, so this bound, which stops the server by its PID, fires
 * first and says why.
 */
const PRODUCT_START_TIMEOUT = 120_000
/** The time-out for a `beforeAll` that starts the product: call `test.setTimeout(PRODUCT_HOOK_TIMEOUT)` in it. */
export const PRODUCT_HOOK_TIMEOUT = PRODUCT_START_TIMEOUT + 30_000

/** Where {@link startProduct} runs the server from. */
export type StartProductOptions = {
  /** The script node runs: an installed package's bin, say. @default apps/server/dist/main.js */
  main?: string | undefined
  /** @default the repository's root */
  cwd?: string | undefined
}

/**
 * Starts `node apps/server/dist/main.js` on a free port (PORT=0) with a throw-away data directory and waits for
 * the URLs it prints (or its exit). `npm test` builds it first; run `npm run build` before running this suite on
 * its own.
 */
export async function startProduct(
  env: Record<string, string> = {},
  options: StartProductOptions = {},
): Promise<Product> {
  const dataDir = mkdtempSync(join(tmpdir(), 'pairlink-e2e-'))
  const child = spawn(process.execPath, [options.main ?? join(root, 'apps/server/dist/main.js')], {
    cwd: options.cwd ?? root,
    env: { ...process.env, PORT: '0', HOST: '127.0.0.1', DATA_DIR: dataDir, LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let output = ''
  child.stdout?.on('data', (chunk: Buffer) => {
    output += chunk.toString()
  })
  child.stderr?.on('data', (chunk: Buffer) => {
    output += chunk.toString()
  })
  const stop = async () => {
    await stopChild(child)
    rmSync(dataDir, { recursive: true, force: true })
  }
  const origin = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => {
      reject(new Error(`The server printed no URLs within ${PRODUCT_START_TIMEOUT} ms:\n${output}`))
    }, PRODUCT_START_TIMEOUT)
    const check = () => {
      const match = /web app\s+(https?:\/\/[^/\s]+)\//.exec(output)
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
  }).catch(async (error: unknown) => {
    await stop()
    throw error
  })
  return { origin, rpcUrl: `${origin}/rpc`, output: () => output, stop }
}

/**
 * SIGTERM by PID (the server stops its anvil, the CLI wallet ends its session) and waits for the exit. No SIGKILL
 * after a guessed time: that would orphan the server's anvil; a process that ignores SIGTERM fails the hook.
 */
export async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null || !child.pid) return
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()))
  process.kill(child.pid, 'SIGTERM')
  await exited
}

/**
 * Starts the product before the tests of the file (or `describe`) it is called in and stops it after them: the
 * object returned is filled in by the `beforeAll`, so tests read `product.origin` as usual.
 *
 * @example
 * const product = withProduct()
 * test('…', async ({ page }) => { await page.goto(product.origin) })
 */
export function withProduct(env: Record<string, string> = {}): Product {
  const product = {} as Product
  test.beforeAll(async () => {
    test.setTimeout(PRODUCT_HOOK_TIMEOUT)
    Object.assign(product, await startProduct(env))
  })
  test.afterAll(async () => {
    await product.stop?.()
  })
  return product
}

/**
 * A `WALLETS_FILE` declaring one in-house wallet besides Pairlink Wallet (links on phones and desktops, no logo): the
 * wallets that reach a server without a project id, as an operator would list them, so the modal shows its list
 * and its desktop tab rather than the single link it shows for one wallet.
 */
export function inHouseWalletsFile(): string {
  const file = join(mkdtempSync(join(tmpdir(), 'pairlink-wallets-')), 'wallets.json')
  const links = { native: '', universal: 'https://wallet.acme.example' }
  writeFileSync(
    file,
    JSON.stringify([{ id: 'acme-wallet', name: 'Acme Wallet', mobile: links, desktop: links }]),
  )
  return file
}
