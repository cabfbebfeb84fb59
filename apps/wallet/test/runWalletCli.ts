import { type ChildProcess, spawn } from 'node:child_process'
import { fileURLToPath } from 'node:url'

const root = fileURLToPath(new URL('../../../', import.meta.url))
const tsx = `${root}node_modules/tsx/dist/cli.mjs`
const tsconfig = fileURLToPath(new URL('./tsconfig.sources.json', import.meta.url))
const cli = fileURLToPath(new URL('../src/cli.ts', import.meta.url))

/** A `pairlink-wallet` child process and what it printed. */
export type WalletProcess = {
  child: ChildProcess
  /** Every stdout line, as printed. */
  lines: string[]
  stderr(): string
  /**
   * Resolves with the first parsed line of that event (seen already or coming); rejects if the process ends
   * without printing it. No timer of its own: the test's time-out bounds it.
   */
  waitFor(event: string): Promise<Record<string, unknown>>
  /** Resolves with the exit code once the process ended and its output was read. */
  exited(): Promise<number | null>
  /** Sends SIGTERM to the process by its PID (the CLI ends its session) and waits for it to end. */
  stop(): Promise<void>
}

/**
 * Starts the CLI from its sources with tsx (packages resolved to their sources too, as vitest does), so the test
 * never runs a stale build. `PAIRLINK_WALLET_CLI=dist` runs the built `dist-cli/cli.js` instead.
 */
export function runWalletCli(args: string[], env: Record<string, string> = {}): WalletProcess {
  const command =
    process.env.PAIRLINK_WALLET_CLI === 'dist'
      ? [fileURLToPath(new URL('../dist-cli/cli.js', import.meta.url)), ...args]
      : [tsx, '--tsconfig', tsconfig, cli, ...args]
  const child = spawn(process.execPath, command, {
    cwd: root,
    env: { ...process.env, ...env },
    stdio: 'pipe',
  })
  const lines: string[] = []
  let buffer = ''
  let stderr = ''
  const waiters = new Set<() => void>()
  child.stdout.on('data', (chunk: Buffer) => {
    buffer += chunk.toString()
    const parts = buffer.split('\n')
    buffer = parts.pop() ?? ''
    lines.push(...parts.filter(Boolean))
    for (const waiter of [...waiters]) waiter()
  })
  child.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk.toString()
  })
  // `close` comes after the last output was read (`exit` may come before it).
  const exit = new Promise<number | null>((resolve) => child.once('close', (code) => resolve(code)))

  const find = (event: string) => {
    for (const line of lines) {
      try {
        const parsed = JSON.parse(line) as Record<string, unknown>
        if (parsed.event === event) return parsed
      } catch {}
    }
    return undefined
  }

  return {
    child,
    lines,
    stderr: () => stderr,
    waitFor(event) {
      return new Promise((resolve, reject) => {
        const check = () => {
          const found = find(event)
          if (!found) return
          waiters.delete(check)
          resolve(found)
        }
        waiters.add(check)
        check()
        void exit.then((code) => {
          check()
          if (waiters.delete(check))
            reject(
              new Error(
                `exited with ${code} without a "${event}" line; got:\n${lines.join('\n')}\n${stderr}`,
              ),
            )
        })
      })
    },
    exited: () => exit,
    async stop() {
      if (child.exitCode === null && child.signalCode === null && child.pid)
        process.kill(child.pid, 'SIGTERM')
      await exit
    },
  }
}
