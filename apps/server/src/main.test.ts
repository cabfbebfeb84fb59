import { spawn } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { startAnvil } from '@pairlink/test-kit/anvil'
import { startRedis } from '@pairlink/test-kit/redis'
import { describe, expect, test } from 'vitest'

// The CLI is run from its build, as `npm start` runs it.
const main = fileURLToPath(new URL('../dist/main.js', import.meta.url))

function run(env: Record<string, string>, untilOutput?: RegExp) {
  // Each run gets its own embedded database: PGlite opens a folder from one process at a time.
  const dataDir = mkdtempSync(join(tmpdir(), 'pairlink-main-'))
  return new Promise<{ code: number | null; out: string }>((resolve) => {
    const child = spawn(process.execPath, [main], {
      env: { ...process.env, DATA_DIR: dataDir, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    let out = ''
    const onData = (chunk: Buffer) => {
      out += chunk.toString()
      if (untilOutput?.test(out)) child.kill('SIGTERM')
    }
    child.stdout.on('data', onData)
    child.stderr.on('data', onData)
    const timer = setTimeout(() => child.kill('SIGKILL'), 25_000)
    child.on('exit', (code) => {
      clearTimeout(timer)
      rmSync(dataDir, { recursive: true, force: true })
      resolve({ code, out })
    })
  })
}

describe('pairlink-server', () => {
  test('default: starts anvil, prints the URLs of the web app and the wallet, stops cleanly on SIGTERM', async () => {
    const { code, out } = await run({ PORT: '0', HOST: '127.0.0.1' }, /wallet\s+http/)
    expect(out).toMatch(/web app\s+http:\/\/127\.0\.0\.1:\d+\//)
    expect(out).toMatch(/wallet\s+http:\/\/127\.0\.0\.1:\d+\/wallet/)
    expect(out).toContain('anvil dev chain, id 31337')
    expect(out).toMatch(/database\s+embedded \(PGlite\)/)
    expect(code, out).toBe(0)
  })

  test('args: REDIS_URL runs the bridge on Redis', async () => {
    const redis = await startRedis()
    try {
      const { code, out } = await run({ PORT: '0', REDIS_URL: redis.url }, /wallet\s+http/)
      expect(out).toContain('(Redis backend)')
      expect(code, out).toBe(0)
    } finally {
      await redis.stop()
    }
  })

  test('error: an unreachable Redis is named in plain words', async () => {
    const { code, out } = await run({ PORT: '0', REDIS_URL: 'redis://127.0.0.1:1' })
    expect(code).toBe(1)
    expect(out).toContain('Redis at redis://127.0.0.1:1 is unreachable: start it or fix REDIS_URL')
  })

  test('error: a taken port is named in plain words', async () => {
    const blocker = createServer()
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve))
    const port = String((blocker.address() as { port: number }).port)
    const anvil = await startAnvil()
    const { code, out } = await run({ PORT: port, HOST: '127.0.0.1', RPC_URL: anvil.url })
    blocker.close()
    await anvil.stop()
    expect(code).toBe(1)
    expect(out).toContain(`pairlink: Port ${port} on 127.0.0.1 is taken: stop what uses it or set PORT`)
  })

  test('error: an unreachable RPC node is named without its credentials', async () => {
    const { code, out } = await run({ PORT: '0', RPC_URL: 'http://user:hunter2@127.0.0.1:1/' })
    expect(code).toBe(1)
    expect(out).toContain('is unreachable: start it or fix RPC_URL')
    expect(out).not.toContain('hunter2')
  })

  test('error: an invalid PORT', async () => {
    const { code, out } = await run({ PORT: 'eighty' })
    expect(code).toBe(1)
    expect(out).toContain('PORT must be a port number')
  })
})
