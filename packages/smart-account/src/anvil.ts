// The dev chain: anvil with this package's account factory at its fixed address. Node only (child processes), so it
// is a subpath of its own (`@pairlink/smart-account/anvil`) and the main entry stays browser-safe. The one copy: the
// server starts it when RPC_URL is unset, and @pairlink/test-kit re-exports it for the tests.
import { type ChildProcess, spawn } from 'node:child_process'
import { accessSync, constants, existsSync } from 'node:fs'
import { createRequire } from 'node:module'
import { delimiter, dirname, join } from 'node:path'
import { BaseError } from '@pairlink/protocol'
import { keccak256, toHex } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { deployAccountFactory } from './deployAccountFactory.js'

/** The dev chain could not be started. */
export class AnvilError extends BaseError {
  static override code = 'ERR_ANVIL'
  override name = 'AnvilError'
}

/** Parameters of {@link startAnvil}. */
export type StartAnvilParameters = {
  /** @default a port the kernel picks (anvil binds port 0 and says which) */
  port?: number | undefined
  /** @default 31337 */
  chainId?: number | undefined
  /** Seconds between blocks; transactions are still mined at once (mixed mining); 0 mines on transactions only. @default 1 */
  blockTime?: number | undefined
  /** @default 20_000 */
  timeoutMs?: number | undefined
  /**
   * Deploy the smart-account factory at its fixed address (`ACCOUNT_FACTORY_ADDRESS`), so wallets sign as
   * smart accounts without being told where it is. One block, sent by a key of its own: the dev accounts' nonces and
   * balances stay as anvil made them. @default true
   */
  accountFactory?: boolean | undefined
}

/** A running anvil. */
export type Anvil = {
  url: string
  port: number
  chainId: number
  pid: number
  /** Stops anvil and waits for it to exit. */
  stop(): Promise<void>
  /** Sends anvil SIGKILL at once (for exits that cannot wait). */
  kill(): void
}

const PLATFORMS: Record<string, string> = { linux: 'linux', darwin: 'darwin', win32: 'win32' }
const ARCHES: Record<string, string> = { x64: 'amd64', arm64: 'arm64' }

/**
 * The anvil binary: the one shipped inside the npm package `@foundry-rs/anvil` (its platform package, found from
 * here, so beside an installed server too), else an `anvil` on `PATH` (Foundry's own installer). Spawned directly so
 * the process we stop is anvil itself, not a wrapper. Throws {@link AnvilError} naming the fix when there is none.
 */
export function resolveAnvilBinary(
  target: { platform: string; arch: string; path?: string | undefined } = {
    platform: process.platform,
    arch: process.arch,
    path: process.env.PATH,
  },
): string {
  const require = createRequire(import.meta.url)
  const pkg = `@foundry-rs/anvil-${PLATFORMS[target.platform] ?? target.platform}-${ARCHES[target.arch] ?? target.arch}`
  const file = target.platform === 'win32' ? 'anvil.exe' : 'anvil'
  try {
    const binary = join(dirname(require.resolve(`${pkg}/package.json`)), 'bin', file)
    if (existsSync(binary)) return binary
  } catch {}
  for (const dir of target.path?.split(delimiter) ?? []) {
    const binary = join(dir, file)
    try {
      accessSync(binary, constants.X_OK)
      return binary
    } catch {}
  }
  throw new AnvilError(`anvil is missing: the npm package ${pkg} is not installed`, {
    details:
      'install the dev chain beside Pairlink (`npm install @foundry-rs/anvil`; in this repository `npm ci`), or set RPC_URL to a node of your own',
  })
}

/**
 * Starts anvil on 127.0.0.1 with its funded dev accounts, a block a second and transactions mined at once, deploys
 * the smart-account factory, and resolves once both are done.
 *
 * @example
 * const anvil = await startAnvil()
 * // … anvil.url …
 * await anvil.stop()
 */
export async function startAnvil(parameters: StartAnvilParameters = {}): Promise<Anvil> {
  const { chainId = 31337, blockTime = 1, timeoutMs = 20_000, accountFactory = true } = parameters
  const binary = resolveAnvilBinary()
  const args = ['--host', '127.0.0.1', '--port', String(parameters.port ?? 0), '--chain-id', String(chainId)]
  if (blockTime > 0) args.push('--block-time', String(blockTime), '--mixed-mining')
  // Not `--silent`: the `Listening on` line is how a port the kernel picked is learnt, with no race for a free one.
  const child = spawn(binary, args, { stdio: ['ignore', 'pipe', 'pipe'] })
  let stderr = ''
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr = (stderr + chunk.toString()).slice(-2000)
  })
  const exited = new Promise<never>((_, reject) =>
    child.once('exit', (code) =>
      reject(new AnvilError(`anvil exited with code ${code}`, { details: stderr.trim() })),
    ),
  )
  try {
    const port = await Promise.race([listening(child, timeoutMs), exited])
    const url = `http://127.0.0.1:${port}`
    if (accountFactory) await Promise.race([deployFactory(url), exited])
    exited.catch(() => {})
    return {
      url,
      port,
      chainId,
      pid: child.pid ?? -1,
      stop: () => stopChild(child),
      kill: () => void child.kill('SIGKILL'),
    }
  } catch (error) {
    exited.catch(() => {})
    child.kill('SIGKILL')
    throw error
  }
}

/** The port of anvil's `Listening on 127.0.0.1:PORT` line (printed once it accepts connections). */
function listening(child: ChildProcess, timeoutMs: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new AnvilError(`anvil did not listen within ${timeoutMs} ms`)),
      timeoutMs,
    )
    child.once('exit', () => clearTimeout(timer))
    let output = ''
    const read = (chunk: Buffer) => {
      output = (output + chunk.toString()).slice(-4000)
      const match = /Listening on 127\.0\.0\.1:(\d+)/.exec(output)
      if (!match) return
      clearTimeout(timer)
      // Still drained, unread: anvil logs every call it answers, and a full pipe would stall it.
      child.stdout?.off('data', read)
      child.stdout?.resume()
      resolve(Number(match[1]))
    }
    child.stdout?.on('data', read)
  })
}

/** The key that deploys the account factory on a dev chain: no dev account's, funded by anvil for this alone. */
const FACTORY_DEPLOYER = privateKeyToAccount(keccak256(toHex('pairlink dev-chain factory deployer')))

async function deployFactory(url: string): Promise<void> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'anvil_setBalance',
      params: [FACTORY_DEPLOYER.address, toHex(10n ** 18n)],
    }),
  })
  const body = (await response.json()) as { error?: { message: string } }
  if (body.error) throw new AnvilError(`anvil refused anvil_setBalance: ${body.error.message}`)
  await deployAccountFactory({ url, from: FACTORY_DEPLOYER })
}

function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve()
  return new Promise((resolve) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), 3000)
    child.once('exit', () => {
      clearTimeout(timer)
      resolve()
    })
    child.kill('SIGTERM')
  })
}
