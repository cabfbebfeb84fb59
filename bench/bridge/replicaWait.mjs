// What waiting for a replica costs the v2 relay (`waitForReplicas`, docs/redis-ha.md): two bridge nodes on a Sentinel
// cluster (test kit's `startRedisSentinel`: primary, one replica, three sentinels), the v2 store answering a publish
// once the primary keeps the message (`wait-off`, the same-run baseline) or once the replica holds it too
// (`wait-on`: WAIT 1, 500 ms). Measures, the two taking turns ROUNDS times (default 5; medians): the time a
// publisher waits for its answer (one client publishing one message after another, ACKS of them, p50 and p99), and
// cross-node ping-pong throughput with the relays' CPU per message at PAIRS pairs (default 1,100; the push does not
// wait for the replica, only the publisher's answer does). Prints one JSON line. Run `node scripts/build.mjs` first.
// Options: ROUNDS, PAIRS, DURATION_MS (default 1000), ACKS (default 300).
import os from 'node:os'
import { startRedisSentinel } from '@pairlink/test-kit/redis-sentinel'
import { interleave, median, pairedRatio } from '../measure.mjs'
import { compareRelays, openSockets, startRelay, wires } from './lib.mjs'

const rounds = Number(process.env.ROUNDS ?? 5)
const pairCounts = (process.env.PAIRS ?? '1,100').split(',').map(Number)
const durationMs = Number(process.env.DURATION_MS ?? 1_000)
const acks = Number(process.env.ACKS ?? 300)

const cluster = await startRedisSentinel()
try {
  /** @type {Record<'wait-off' | 'wait-on', { p50: number[], p99: number[] }>} */
  const answers = { 'wait-off': { p50: [], p99: [] }, 'wait-on': { p50: [], p99: [] } }
  /** @param {'wait-off' | 'wait-on'} name */
  const answerTime = (name) => async () => {
    const relay = await startRelay(
      name === 'wait-on' ? 'redis-wait' : 'redis',
      cluster.url,
      `${cluster.keyPrefix}${name}:`,
    )
    try {
      /** @type {(() => void) | undefined} */
      let answered
      const [ws] = await openSockets(relay.url, 1, {
        wire: 'v2',
        onMessage: (_index, text) => {
          if (text.includes('"result":true')) answered?.()
        },
      })
      const topic = wires.v2.topic()
      const times = []
      for (let i = 0; i < acks; i++) {
        const started = performance.now()
        await new Promise((resolve) => {
          answered = () => resolve(undefined)
          ws?.send(wires.v2.pub(topic, i, started))
        })
        times.push(performance.now() - started)
      }
      ws?.terminate()
      times.sort((a, b) => a - b)
      const p50 = median(times)
      answers[name].p50.push(p50)
      answers[name].p99.push(/** @type {number} */ (times[Math.floor(times.length * 0.99)]))
      return p50
    } finally {
      await relay.stop()
    }
  }
  await interleave({ 'wait-off': answerTime('wait-off'), 'wait-on': answerTime('wait-on') }, { rounds })
  const round3 = (/** @type {number} */ value) => Math.round(value * 1000) / 1000

  const throughput = []
  for (const pairs of pairCounts) {
    const { rows, samples, cpuSamples } = await compareRelays(
      {
        'wait-off': { nodes: ['redis', 'redis'], wire: 'v2' },
        'wait-on': { nodes: ['redis-wait', 'redis-wait'], wire: 'v2' },
      },
      { pairs, mode: 'pingpong', durationMs },
      { rounds, redisUrl: cluster.url, keyPrefix: `${cluster.keyPrefix}${pairs}:` },
    )
    throughput.push({
      pairs,
      ...rows,
      onVsOff: pairedRatio(samples['wait-on'] ?? [], samples['wait-off'] ?? []),
      cpuOnVsOff: pairedRatio(cpuSamples['wait-on'] ?? [], cpuSamples['wait-off'] ?? []),
    })
  }
  console.log(
    JSON.stringify({
      bench: 'replicaWait',
      answerMs: Object.fromEntries(
        Object.entries(answers).map(([name, { p50, p99 }]) => [
          name,
          { p50: round3(median(p50)), p99: round3(median(p99)) },
        ]),
      ),
      throughput,
      rounds,
      durationMs,
      cpus: os.cpus().length,
      loadavg: os.loadavg().map((value) => Math.round(value * 100) / 100),
    }),
  )
} finally {
  await cluster.stop()
}
