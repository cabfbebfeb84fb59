import { type ChildProcess, spawn } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { stopChild } from './product.js'

const root = fileURLToPath(new URL('../../../', import.meta.url))

/**
 * `pairlink-wallet` as `npx pairlink-wallet` runs it: the link npm made to apps/wallet's committed bin, which runs
 * the built `dist-cli/cli.js`. `PAIRLINK_WALLET_CLI` points elsewhere.
 */
export const CLI_PATH = process.env.PAIRLINK_WALLET_CLI ?? `${root}node_modules/.bin/pairlink-wallet`

/** The build the bin runs. */
export const CLI_BUILD = `${root}apps/wallet/dist-cli/cli.js`

/** One JSON line the headless wallet printed. */
type CliEvent = { event: string; [field: string]: unknown }

/**
 * Spawns the headless reference wallet for a `wc:` URI and collects the JSON lines it prints. `stop()` kills it
 * by PID (SIGTERM ends its session first). `cli` runs another build of it (an installed package's bin) from `cwd`.
 */
export function startCliWallet(args: string[], { cli = CLI_PATH, cwd = root } = {}) {
  const child: ChildProcess = spawn(process.execPath, [cli, ...args], {
    cwd,
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  const events: CliEvent[] = []
  let buffer = ''
  let stderr = ''
  child.stdout?.on('data', (chunk: Buffer) => {
    buffer += chunk.toString()
    const lines = buffer.split('\n')
    buffer = lines.pop() ?? ''
    for (const line of lines) {
      try {
        events.push(JSON.parse(line) as CliEvent)
      } catch {
        events.push({ event: 'unparsed', line })
      }
    }
  })
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString()
  })
  return {
    events,
    /** The names of the events so far, in order. */
    names: () => events.map((e) => e.event),
    stderr: () => stderr,
    stop: () => stopChild(child),
  }
}
