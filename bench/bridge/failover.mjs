// Redis Sentinel failover under traffic, RUNS times (default 10): each run starts a primary, a replica and three
// sentinels (test kit's `startRedisSentinel`: a second of silence and they fail over), two bridge nodes on them as
// pairlink-bridge runs them (Redis backend with node links, v2 store waiting for the replica), v1 traffic both ways
// and v2 publishes (live to a subscriber on the other node, and kept for a reader after the failover), then SIGKILLs
// the primary (test kit's `runRedisFailover`). Prints one JSON line per run, then one summary line: failover time
// (kill → every sentinel names the new primary), time from the kill and from the failover to resumed v1 and v2
// deliveries, and what was lost (v2: messages the relay acknowledged and never delivered, live or kept).
// Run `node scripts/build.mjs` first. Options: RUNS, WAIT_REPLICAS (default 1; 0 turns the wait off).
import os from 'node:os'
import { runRedisFailover } from '@pairlink/test-kit/redis-failover'
import { startRedisSentinel } from '@pairlink/test-kit/redis-sentinel'
import { median } from '../measure.mjs'

const runs = Number(process.env.RUNS ?? 10)
const replicas = Number(process.env.WAIT_REPLICAS ?? 1)
const waitForReplicas = replicas > 0 ? { replicas, timeoutMs: 500 } : false

/** @type {Awaited<ReturnType<typeof runRedisFailover>>[]} */
const results = []
for (let run = 1; run <= runs; run++) {
  const cluster = await startRedisSentinel()
  try {
    const result = await runRedisFailover({ cluster, waitForReplicas })
    results.push(result)
    console.log(JSON.stringify({ bench: 'failover', run, ...result }))
  } finally {
    await cluster.stop()
  }
}

/** @param {number[]} values */
const spread = (values) => ({ median: median(values), max: Math.max(...values), min: Math.min(...values) })
const sum = (/** @type {number[]} */ values) => values.reduce((a, b) => a + b, 0)
console.log(
  JSON.stringify({
    bench: 'failover',
    summary: true,
    runs,
    waitForReplicas,
    failoverMs: spread(results.map((r) => r.failoverMs)),
    v2ResumeAfterKillMs: spread(results.map((r) => r.v2.resumeAfterKillMs)),
    v2ResumeAfterFailoverMs: spread(results.map((r) => r.v2.resumeAfterFailoverMs)),
    v1ResumeAfterKillMs: spread(results.map((r) => r.v1.resumeAfterKillMs)),
    v1Lost: sum(results.map((r) => r.v1.lost)),
    v1Sent: sum(results.map((r) => r.v1.sent)),
    v2Acknowledged: sum(results.map((r) => r.v2.acknowledged + r.v2.keptAcknowledged)),
    v2AcknowledgedLost: sum(results.map((r) => r.v2.lost + r.v2.keptLost)),
    v2Duplicated: sum(results.map((r) => r.v2.duplicated)),
    resumedWithin10sOfFailover: results.every(
      (r) => r.v1.resumeAfterFailoverMs < 10_000 && r.v2.resumeAfterFailoverMs < 10_000,
    ),
    cpus: os.cpus().length,
    loadavg: os.loadavg().map((value) => Math.round(value * 100) / 100),
  }),
)
