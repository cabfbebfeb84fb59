import { type ChildProcess, spawn } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { freePort } from './freePort.js'

/** A Redis for tests: `url` to connect to and a `keyPrefix` no other test run uses. */
export type TestRedis = {
  url: string
  keyPrefix: string
  /** The port of the spawned server (undefined when `REDIS_URL` is used). */
  port: number | undefined
  /** Stops the spawned server (by its PID); a no-op with `REDIS_URL`. */
  stop(): Promise<void>
  /** Starts the spawned server again on the same port: empty, or with its data when started `persistent`. */
  restart(): Promise<void>
}

/** Options of {@link startRedis}. */
export type StartRedisParameters = {
  /**
   * Keep data across `restart()` with an append-only file in a temporary directory (removed by `stop()`), as a
   * production Redis with AOF would. @default false
   */
  persistent?: boolean | undefined
}

/**
 * Uses `REDIS_URL` when set (with a unique key prefix per call, never flushing anything), else spawns
 * `/usr/bin/redis-server` on a free loopback port without persistence and stops it by PID afterwards.
 *
 * @example
 * const redis = await startRedis()
 * afterAll(() => redis.stop())
 */
export async function startRedis(parameters: StartRedisParameters = {}): Promise<TestRedis> {
  const keyPrefix = `pairlink:test:${randomBytes(6).toString('hex')}:`
  const external = process.env.REDIS_URL
  if (external)
    return { url: external, keyPrefix, port: undefined, stop: async () => {}, restart: async () => {} }

  const port = await freePort()
  const dir = parameters.persistent ? mkdtempSync(join(tmpdir(), 'pairlink-redis-')) : undefined
  const persistence = dir
    ? ['--appendonly', 'yes', '--appendfsync', 'always', '--dir', dir]
    : ['--appendonly', 'no']
  let child: ChildProcess | undefined
  const start = async () => {
    const spawned = spawn(
      process.env.REDIS_SERVER ?? '/usr/bin/redis-server',
      ['--port', String(port), '--bind', '127.0.0.1', '--save', '', ...persistence],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    )
    child = spawned
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('redis-server did not start within 5 s')), 5_000)
      spawned.stdout?.on('data', (chunk: Buffer) => {
        if (chunk.toString().includes('Ready to accept connections')) {
          clearTimeout(timer)
          resolve()
        }
      })
      spawned.once('exit', (code) => {
        clearTimeout(timer)
        reject(new Error(`redis-server exited with ${code}`))
      })
    })
  }
  const stop = async () => {
    const running = child
    child = undefined
    if (!running?.pid || running.exitCode !== null) return
    const exited = new Promise((resolve) => running.once('exit', resolve))
    process.kill(running.pid, 'SIGTERM')
    await exited
  }
  await start()
  return {
    url: `redis://127.0.0.1:${port}`,
    keyPrefix,
    port,
    stop: async () => {
      await stop()
      if (dir) rmSync(dir, { recursive: true, force: true })
    },
    restart: async () => {
      await stop()
      await start()
    },
  }
}
