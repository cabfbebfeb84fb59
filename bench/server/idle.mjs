#!/usr/bin/env node
// How heavy the server is when it does nothing: time from spawning `node apps/server/dist/main.js` to its first 200
// from /api/me (a database read), and its RSS once idle, with the embedded database (SQLite) on a fresh DATA_DIR
// and on an existing one, beside PostgreSQL (DATABASE_URL) as the baseline, fresh and existing, taking turns.
// Prints one JSON line. Needs a build (`node scripts/build.mjs`). ROUNDS (default 5), IDLE_MS (default 2000).
import { execFileSync, spawn } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { performance } from 'node:perf_hooks'
import { fileURLToPath } from 'node:url'
import { freePort, waitFor } from '@pairlink/test-kit'
import { startAnvil } from '@pairlink/test-kit/anvil'
import { startPostgres } from '@pairlink/test-kit/postgres'
import { median } from '../measure.mjs'

const ROUNDS = Number(process.env.ROUNDS ?? 5)
const IDLE_MS = Number(process.env.IDLE_MS ?? 2000)
/** The finding's targets for a small server's default (issue 13). */
const TARGETS = { rssMb: 150, answerMs: 1500 }
const main = fileURLToPath(new URL('../../apps/server/dist/main.js', import.meta.url))

/** @typedef {{ answerMs: number, cpuMs: number, rssMb: number, peakMb: number }} Run */

/** Clock ticks per second of /proc's CPU times. */
const TICKS = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim())

/**
 * CPU time (user + system) `pid` has used, in ms: unlike the wall-clock time to answer, it barely moves with the
 * machine's load.
 */
function cpuTime(/** @type {number} */ pid) {
  // Fields after the command's closing parenthesis: state is the 3rd, utime the 14th and stime the 15th.
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? []
  return ((Number(fields[11]) + Number(fields[12])) / TICKS) * 1000
}

/** VmRSS and VmHWM (peak) of `pid`, in MB. */
function memory(/** @type {number} */ pid) {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8')
  const kb = (/** @type {string} */ field) => Number(new RegExp(`${field}:\\s+(\\d+) kB`).exec(status)?.[1])
  return { rssMb: kb('VmRSS') / 1024, peakMb: kb('VmHWM') / 1024 }
}

/**
 * Starts the server with `env`, times its first 200 on /api/me, lets it idle IDLE_MS (idle is a duration), reads
 * its memory, then stops it with SIGTERM and waits for its exit.
 * @param {Record<string, string>} env
 * @returns {Promise<Run>}
 */
async function run(env) {
  const port = await freePort()
  const base = { ...process.env }
  delete base.DATABASE_URL
  delete base.REDIS_URL
  const started = performance.now()
  const child = spawn(process.execPath, [main], {
    env: { ...base, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'ignore', 'pipe'],
  })
  let stderr = ''
  child.stderr?.on('data', (chunk) => {
    stderr += chunk
  })
  const exited = new Promise((resolve) => child.once('exit', resolve))
  try {
    await waitFor(
      async () => {
        if (child.exitCode !== null) throw new Error(`the server exited: ${stderr}`)
        const response = await fetch(`http://127.0.0.1:${port}/api/me`).catch(() => undefined)
        return response?.status === 200
      },
      { timeout: 60_000, interval: 5, message: 'the server answering /api/me' },
    )
    const answerMs = performance.now() - started
    const pid = /** @type {number} */ (child.pid)
    const cpuMs = cpuTime(pid)
    await new Promise((resolve) => setTimeout(resolve, IDLE_MS))
    return { answerMs, cpuMs, ...memory(pid) }
  } finally {
    if (child.exitCode === null) child.kill('SIGTERM')
    await exited
  }
}

const round1 = (/** @type {number} */ n) => Math.round(n * 10) / 10
/** Medians of each figure over the runs. */
function summary(/** @type {Run[]} */ runs) {
  return {
    answerMs: round1(median(runs.map((r) => r.answerMs))),
    cpuMs: round1(median(runs.map((r) => r.cpuMs))),
    rssMb: round1(median(runs.map((r) => r.rssMb))),
    peakMb: round1(median(runs.map((r) => r.peakMb))),
  }
}

const anvil = await startAnvil()
const postgres = await startPostgres()
const dirs = /** @type {string[]} */ ([])
const dataDir = () => {
  const dir = mkdtempSync(join(tmpdir(), 'pairlink-bench-db-'))
  dirs.push(dir)
  return join(dir, 'db')
}
try {
  const rpc = { RPC_URL: anvil.url }
  // The "existing" databases are made (and migrated) by one run before the rounds.
  const existingDir = dataDir()
  await run({ ...rpc, DATA_DIR: existingDir })
  await run({ ...rpc, DATABASE_URL: postgres.url })

  /** @type {Record<'embeddedFresh' | 'embeddedExisting' | 'postgresFresh' | 'postgresExisting', Run[]>} */
  const samples = { embeddedFresh: [], embeddedExisting: [], postgresFresh: [], postgresExisting: [] }
  for (let round = 0; round < ROUNDS; round++) {
    samples.embeddedFresh.push(await run({ ...rpc, DATA_DIR: dataDir() }))
    samples.embeddedExisting.push(await run({ ...rpc, DATA_DIR: existingDir }))
    // A fresh database of its own (on DATABASE_URL's server when set, else a new server), made before the clock.
    const fresh = await startPostgres()
    try {
      samples.postgresFresh.push(await run({ ...rpc, DATABASE_URL: fresh.url }))
    } finally {
      await fresh.stop()
    }
    samples.postgresExisting.push(await run({ ...rpc, DATABASE_URL: postgres.url }))
  }

  const embedded = { fresh: summary(samples.embeddedFresh), existing: summary(samples.embeddedExisting) }
  const baseline = { fresh: summary(samples.postgresFresh), existing: summary(samples.postgresExisting) }
  const meetsTargets = [embedded.fresh, embedded.existing].every(
    (figures) => figures.rssMb < TARGETS.rssMb && figures.answerMs < TARGETS.answerMs,
  )
  console.log(
    JSON.stringify({
      bench: 'server-idle',
      what: 'server process: spawn → first 200 from /api/me (wall ms, and CPU ms used by then); RSS after IDLE_MS idle and peak RSS (MB)',
      rounds: ROUNDS,
      idleMs: IDLE_MS,
      targets: TARGETS,
      embedded,
      postgres: baseline,
      rssVsPostgres: round1(embedded.existing.rssMb / baseline.existing.rssMb),
      meetsTargets,
      samples: Object.fromEntries(
        Object.entries(samples).map(([name, runs]) => [
          name,
          runs.map((r) => ({
            answerMs: round1(r.answerMs),
            cpuMs: round1(r.cpuMs),
            rssMb: round1(r.rssMb),
            peakMb: round1(r.peakMb),
          })),
        ]),
      ),
    }),
  )
} finally {
  await postgres.stop()
  await anvil.stop()
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true })
}
