#!/usr/bin/env node
// Runs the bridge's benchmarks, relay, hops, capacity, limits, housekeeping, then the v2 relay's (relayV2, capacityV2,
// abuse), then both generations side by side (generations: issue 29's ratios), then Redis's (replicaWait, redisLoad,
// failover: docs/redis-ha.md), one after the other; each prints its one JSON line (failover: one per run, then a
// summary).
import { spawnSync } from 'node:child_process'
import { fileURLToPath } from 'node:url'

let failed = false
for (const bench of [
  'relay.mjs',
  'hops.mjs',
  'capacity.mjs',
  'limits.mjs',
  'housekeeping.mjs',
  'relayV2.mjs',
  'capacityV2.mjs',
  'abuse.mjs',
  'generations.mjs',
  'replicaWait.mjs',
  'redisLoad.mjs',
  'failover.mjs',
]) {
  const r = spawnSync(process.execPath, [fileURLToPath(new URL(bench, import.meta.url))], {
    stdio: 'inherit',
  })
  failed ||= r.status !== 0
}
process.exit(failed ? 1 : 0)
