import { type ChildProcess, spawn } from 'node:child_process'
import { existsSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { BaseError } from '@pairlink/protocol'
import { deployAccountFactory } from '@pairlink/smart-account'
import { keccak256, toHex } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { freePort } from './freePort.js'
import { waitFor } from './waitFor.js'

/** The dev chain could not be started. */
export class AnvilError extends BaseError {
  static override code = 'ERR_ANVIL'
  override name = 'AnvilError'
}

/** Parameters of {@link startAnvil}. */
export type StartAnvilParameters = {
  /** @default a free loopback port */
  port?: number | undefined
  /** @default 31337 */
  chainId?: number | undefined
  /** Seconds between blocks; transactions are still mined at once (mixed mining); 0 mines on transactions only. @default 1 */
  blockTime?: number | undefined
  /** @default 20_000 */
  timeoutMs?: number | undefined
  /**
   * Deploy the smart-account factory at its fixed address (`ACCOUNT_FACTORY_ADDRESS` of `@pairlink/smart-account`),
   * so wallets sign as smart accounts without being told where it is. One block, sent by a key of its own: the dev
   * accounts' nonces and balances stay as anvil made them. @default true
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
 * The anvil binary shipped inside the npm package `@foundry-rs/anvil` (its platform package), spawned directly so
 * the process we stop is anvil itself, not a wrapper.
 */
export function resolveAnvilBinary(target: { platform: string; arch: string } = process): string {
  const require = createRequire(import.meta.url)
  const pkg = `@foundry-rs/anvil-${PLATFORMS[target.platform] ?? target.platform}-${ARCHES[target.arch] ?? target.arch}`
  try {
    const binary = join(
      dirname(require.resolve(`${pkg}/package.json`)),
      'bin',
      target.platform === 'win32' ? 'anvil.exe' : 'anvil',
    )
    if (existsSync(binary)) return binary
  } catch {}
  throw new AnvilError(`anvil is missing: the npm package ${pkg} is not installed`, {
    details: 'run `npm ci` at the repository root (the dev chain ships in @foundry-rs/anvil)',
  })
}

/**
 * Starts anvil on 127.0.0.1 with its funded dev accounts, a block a second and transactions mined at once, and
 * resolves once it answers JSON-RPC.
 *
 * @example
 * const anvil = await startAnvil()
 * // … anvil.url …
 * await anvil.stop()
 */
export async function startAnvil(parameters: StartAnvilParameters = {}): Promise<Anvil> {
  const { chainId = 31337, blockTime = 1, timeoutMs = 20_000, accountFactory = true } = parameters
  const port = parameters.port ?? (await freePort())
  const binary = resolveAnvilBinary()
  const args = ['--host', '127.0.0.1', '--port', String(port), '--chain-id', String(chainId)]
  if (blockTime > 0) args.push('--block-time', String(blockTime), '--mixed-mining')
  args.push('--silent')
  const child = spawn(binary, args, { stdio: ['ignore', 'ignore', 'pipe'] })
  let stderr = ''
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr = (stderr + chunk.toString()).slice(-2000)
  })
  const url = `http://127.0.0.1:${port}`
  const exited = new Promise<never>((_, reject) =>
    child.once('exit', (code) =>
      reject(new AnvilError(`anvil exited with code ${code}`, { details: stderr.trim() })),
    ),
  )
  try {
    await Promise.race([waitForRpc(url, timeoutMs), exited])
    if (accountFactory) await Promise.race([deployFactory(url), exited])
  } catch (error) {
    child.kill('SIGKILL')
    throw error
  }
  exited.catch(() => {})
  return {
    url,
    port,
    chainId,
    pid: child.pid ?? -1,
    stop: () => stopChild(child),
    kill: () => void child.kill('SIGKILL'),
  }
}

async function waitForRpc(url: string, timeoutMs: number): Promise<void> {
  const answers = async () => {
    const response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_chainId', params: [] }),
      signal: AbortSignal.timeout(1000),
    })
    return response.ok
  }
  await waitFor(answers, { timeout: timeoutMs, interval: 100 }).catch(() => {
    throw new AnvilError(`anvil did not answer at ${url} within ${timeoutMs} ms`)
  })
}

/** The key that deploys the account factory on a dev chain: no dev account's, funded by anvil for this alone. */
const FACTORY_DEPLOYER = privateKeyToAccount(keccak256(toHex('pairlink dev-chain factory deployer')))

async function deployFactory(url: string): Promise<void> {
  await rpc(url, 'anvil_setBalance', [FACTORY_DEPLOYER.address, toHex(10n ** 18n)])
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

/** anvil's default account #0: funded with 10000 ETH on every fresh chain. */
export const ANVIL_ACCOUNT = {
  address: '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266',
  privateKey: '0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80',
} as const

/** anvil's default chain id. */
export const ANVIL_CHAIN_ID = 31337

/** One JSON-RPC call straight to a node, bypassing the code under test (a test's own view of the chain). */
export async function rpc(url: string, method: string, params: unknown[] = []): Promise<unknown> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  })
  const body = (await response.json()) as { result?: unknown; error?: { message: string } }
  if (body.error) throw new Error(body.error.message)
  return body.result
}
