import { type ChildProcess, execFileSync, spawn } from 'node:child_process'
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import pg from 'pg'
import { freePort } from './freePort.js'
import { waitFor } from './waitFor.js'

/** A PostgreSQL database for one test file: its URL and how to drop it. */
export type TestPostgres = {
  url: string
  /** Drops the database and stops the spawned server (by its PID). */
  stop(): Promise<void>
  /**
   * Stops the spawned server as an outage would (fast shutdown: clients are cut off at once), keeping its data; a
   * no-op with `DATABASE_URL`.
   */
  down(): Promise<void>
  /** Starts the server {@link TestPostgres.down} stopped, on the same port, once it accepts connections. */
  up(): Promise<void>
}

/**
 * `DATABASE_URL` when set (a fresh database is created in it and dropped after), else a `postgres` of our own from
 * Debian's package, on a free loopback port in a temporary folder, stopped by its PID after.
 */
export async function startPostgres(): Promise<TestPostgres> {
  const base = process.env.DATABASE_URL
  if (base)
    return createScratchDatabase(base, { stop: async () => {}, down: async () => {}, up: async () => {} })
  const bin = findPostgresBin()
  const dir = mkdtempSync(join(tmpdir(), 'pairlink-pg-'))
  // PostgreSQL refuses to run as root; Debian's package brings the `postgres` user to run it as. Spawning it with
  // that uid (rather than through runuser) keeps the PID ours, so a signal reaches postgres itself.
  const user = process.getuid?.() === 0 ? postgresUser() : {}
  if ('uid' in user) execFileSync('chown', ['postgres:postgres', dir])
  const data = join(dir, 'data')
  execFileSync(join(bin, 'initdb'), ['-D', data, '-A', 'trust', '-U', 'postgres', '--no-sync'], {
    stdio: 'pipe',
    cwd: dir,
    ...user,
  })
  const port = await freePort()
  const args = ['-D', data, '-p', String(port), '-h', '127.0.0.1', '-k', dir, '-F', '-c', 'fsync=off']
  const url = `postgres://postgres@127.0.0.1:${port}/postgres`
  let child: ChildProcess | undefined
  const up = async () => {
    if (child) return
    child = spawn(join(bin, 'postgres'), args, { stdio: 'ignore', cwd: dir, ...user })
    await waitFor(
      async () => {
        const client = new pg.Client({ connectionString: url })
        await client.connect()
        await client.end()
        return true
      },
      { timeout: 10_000, interval: 100, message: `postgres on port ${port} accepting connections` },
    )
  }
  const down = async () => {
    const running = child
    child = undefined
    // SIGINT is PostgreSQL's "fast shutdown": clients are disconnected, the server exits at once.
    if (!running || running.exitCode !== null || running.signalCode !== null) return
    const exited = new Promise((resolve) => running.once('exit', resolve))
    running.kill('SIGINT')
    await exited
  }
  await up()
  return createScratchDatabase(url, {
    async stop() {
      await down()
      rmSync(dir, { recursive: true, force: true })
    },
    down,
    up,
  })
}

function postgresUser(): { uid: number; gid: number } {
  const id = (flag: string) => Number(execFileSync('id', [flag, 'postgres'], { encoding: 'utf8' }).trim())
  return { uid: id('-u'), gid: id('-g') }
}

function findPostgresBin(): string {
  const root = '/usr/lib/postgresql'
  const versions = existsSync(root) ? readdirSync(root).sort((a, b) => Number(b) - Number(a)) : []
  for (const version of versions)
    if (existsSync(join(root, version, 'bin', 'initdb'))) return join(root, version, 'bin')
  throw new Error("PostgreSQL is not installed: `npm test` installs Debian's postgresql, or set DATABASE_URL")
}

async function createScratchDatabase(
  url: string,
  server: Pick<TestPostgres, 'stop' | 'down' | 'up'>,
): Promise<TestPostgres> {
  const name = `pairlink_test_${process.pid}_${Math.random().toString(36).slice(2, 8)}`
  const admin = new pg.Client({ connectionString: url })
  await admin.connect()
  await admin.query(`CREATE DATABASE ${name}`)
  await admin.end()
  const scratch = new URL(url)
  scratch.pathname = `/${name}`
  return {
    url: scratch.toString(),
    async stop() {
      await server.up()
      const admin = new pg.Client({ connectionString: url })
      await admin.connect()
      await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)
      await admin.end()
      await server.stop()
    },
    down: server.down,
    up: server.up,
  }
}
