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
  /** Resolves with the first parsed line of that event (seen already or coming), rejects after `timeoutMs`. */
  waitFor(event: string, timeoutMs?: number): Promise<Record<string, unknown>>
  /** Resolves with the exit code, or kills the process after `timeoutMs` and rejects. */
  exited(timeoutMs?: number): Promise<number | null>
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
  const exit = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)))

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
    waitFor(event, timeoutMs = 20_000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          const found = find(event)
          if (!found) return
          cleanup()
          resolve(found)
        }
        const timer = setTimeout(() => {
          cleanup()
          reject(new Error(`no "${event}" line within ${timeoutMs} ms; got:\n${lines.join('\n')}\n${stderr}`))
        }, timeoutMs)
        const cleanup = () => {
          clearTimeout(timer)
          waiters.delete(check)
        }
        waiters.add(check)
        void exit.then(() => setTimeout(check, 0))
        check()
      })
    },
    async exited(timeoutMs = 20_000) {
      let timer: ReturnType<typeof setTimeout> | undefined
      const timeout = new Promise<never>((_, reject) => {
        timer = setTimeout(() => {
          child.kill('SIGKILL')
          reject(new Error(`pairlink-wallet did not exit within ${timeoutMs} ms`))
        }, timeoutMs)
      })
      try {
        return await Promise.race([exit, timeout])
      } finally {
        clearTimeout(timer)
      }
    },
  }
}
