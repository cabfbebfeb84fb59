// Lighthouse's mobile audit of the web app's first screen (`/`, signed out, no wallet), served by the real server
// (apps/server/dist/main.js, its own anvil) on 127.0.0.1, in Debian's Chromium (e2e/lighthouse.mjs). Prints one JSON
// line: the median of ROUNDS runs (default 3) of each score and timing, beside the targets of issue 13 (performance
// ≥ 95, under 200 KB transferred). Run `node scripts/build.mjs` first: it builds the apps and their .br/.gz copies.
import { spawn } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { runLighthouse } from '../../e2e/lighthouse.mjs'

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3)
/** The server's start (anvil, database) plus each Lighthouse run, generous for a loaded machine. */
const LIMIT_MS = 120_000 + ROUNDS * 120_000
const root = fileURLToPath(new URL('../../', import.meta.url))

const watchdog = setTimeout(() => {
  console.error(`bench/web: not done within ${LIMIT_MS} ms`)
  process.exit(1)
}, LIMIT_MS)
watchdog.unref()

/** @param {number[]} values */
const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN
}

const dataDir = mkdtempSync(join(tmpdir(), 'pairlink-bench-web-'))
const server = spawn(process.execPath, [join(root, 'apps/server/dist/main.js')], {
  cwd: root,
  env: { ...process.env, PORT: '0', HOST: '127.0.0.1', DATA_DIR: dataDir, LOG_LEVEL: 'warn' },
  stdio: ['ignore', 'pipe', 'pipe'],
})
let output = ''
server.stderr.on('data', (chunk) => {
  output += chunk
})
try {
  const origin = await new Promise((resolve, reject) => {
    server.stdout.on('data', (chunk) => {
      output += chunk
      const match = /web app\s+(https?:\/\/[^/\s]+)\//.exec(output)
      if (match) resolve(match[1])
    })
    server.once('exit', (code) => reject(new Error(`the server exited with code ${code}:\n${output}`)))
  })
  /** @type {Awaited<ReturnType<typeof runLighthouse>>[]} */
  const runs = []
  for (let round = 0; round < ROUNDS; round++) runs.push(await runLighthouse(`${origin}/`))
  /** @param {(run: Awaited<ReturnType<typeof runLighthouse>>) => number | null} pick */
  const mid = (pick) => median(runs.map((run) => pick(run) ?? Number.NaN))
  console.log(
    JSON.stringify({
      bench: 'web',
      metric: 'Lighthouse mobile, first load of /',
      rounds: ROUNDS,
      scores: {
        performance: mid((run) => run.scores.performance),
        accessibility: mid((run) => run.scores.accessibility),
        bestPractices: mid((run) => run.scores.bestPractices),
        seo: mid((run) => run.scores.seo),
      },
      performance_each: runs.map((run) => run.scores.performance),
      transferred_bytes: mid((run) => run.transferredBytes),
      metrics_ms: {
        fcp: mid((run) => run.metrics.fcp),
        lcp: mid((run) => run.metrics.lcp),
        tbt: mid((run) => run.metrics.tbt),
        speedIndex: mid((run) => run.metrics.speedIndex),
      },
      cls: mid((run) => run.metrics.cls),
      target: { performance: 95, transferred_bytes_below: 200_000 },
    }),
  )
} finally {
  if (server.exitCode === null && server.signalCode === null) {
    const exited = new Promise((resolve) => server.once('exit', resolve))
    server.kill('SIGTERM')
    await exited
  }
  rmSync(dataDir, { recursive: true, force: true })
}
