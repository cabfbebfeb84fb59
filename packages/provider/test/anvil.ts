import { type ChildProcess, spawn } from 'node:child_process'
import { createServer } from 'node:net'
import { fileURLToPath } from 'node:url'

/** anvil from the `@foundry-rs/anvil` package of the workspace root. */
const ANVIL = fileURLToPath(new URL('../../../node_modules/.bin/anvil', import.meta.url))

/** anvil's default account #0: funded with 10000 ETH on every fresh chain. */
export const ANVIL_ACCOUNT = {
  address: '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266',
  privateKey: '0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80',
} as const

/** anvil's chain id. */
export const ANVIL_CHAIN_ID = 31337

/** A free TCP port on the loopback interface. */
export async function freePort(): Promise<number> {
  const server = createServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const address = server.address()
  await new Promise<void>((resolve) => server.close(() => resolve()))
  if (!address || typeof address === 'string') throw new Error('no port')
  return address.port
}

/**
 * Starts anvil on 127.0.0.1 and a free port, mining one block per `blockTime` seconds and transactions at once
 * (`--mixed-mining`); resolves when it answers `eth_chainId`. `stop()` kills that process by its PID.
 */
export async function startAnvil(parameters: { blockTime?: number } = {}) {
  const port = await freePort()
  const args = ['--port', String(port), '--host', '127.0.0.1', '--quiet']
  if (parameters.blockTime !== 0)
    args.push('--block-time', String(parameters.blockTime ?? 1), '--mixed-mining')
  const child: ChildProcess = spawn(ANVIL, args, { stdio: 'ignore' })
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()))
  const url = `http://127.0.0.1:${port}`
  const stop = async () => {
    if (child.exitCode === null && child.pid !== undefined) process.kill(child.pid, 'SIGTERM')
    await exited
  }
  for (let attempt = 0; attempt < 200; attempt++) {
    if (child.exitCode !== null) break
    try {
      const response = await fetch(url, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_chainId', params: [] }),
      })
      if (response.ok) return { url, port, pid: child.pid, stop }
    } catch {}
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
  await stop()
  throw new Error(`anvil did not start on port ${port}`)
}

/** One JSON-RPC call straight to a node, bypassing the provider (the test's own view of the chain). */
export async function rpc(url: string, method: string, params: unknown[] = []): Promise<unknown> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  })
  const body = (await response.json()) as { result?: unknown; error?: { message: string } }
  if (body.error) throw new Error(body.error.message)
  return body.result
}
