#!/usr/bin/env node
// Runs the bridge's four benchmarks, relay, capacity, limits then housekeeping, one after the other; each prints its
// one JSON line.
import { spawnSync } from 'node:child_process'
import { fileURLToPath } from 'node:url'

let failed = false
for (const bench of ['relay.mjs', 'capacity.mjs', 'limits.mjs', 'housekeeping.mjs']) {
  const r = spawnSync(process.execPath, [fileURLToPath(new URL(bench, import.meta.url))], {
    stdio: 'inherit',
  })
  failed ||= r.status !== 0
}
process.exit(failed ? 1 : 0)
