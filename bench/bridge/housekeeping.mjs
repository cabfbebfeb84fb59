// Housekeeping: how long the server's ping sweep holds deliveries up. One bridge process (memory backend) with IDLE
// (default 10 000) idle subscribed sockets and a short ping interval (PING_INTERVAL_MS, default 1000, so several
// sweeps happen), while one pair sends a message every PERIOD_MS (default 5) for DURATION_MS (default 5000): the
// latency of every message with the pings spread over the interval in slices (`sliced`, the default), all sockets
// pinged in one loop (`single`, the old behaviour: `pingSliceMs` equal to the interval), and no ping at all (`none`:
// the machine's own noise), ROUNDS times (default 2) in turns; SWEEPS picks some (e.g. "sliced,single"). The idle
// sockets live in a child process of their own (`crowd`), so their pongs cost the measuring process nothing. Prints
// one JSON line. Run `node scripts/build.mjs` first; `ulimit -n` must allow IDLE sockets in the bridge and the crowd.
import { fork } from 'node:child_process'
import { randomUUID } from 'node:crypto'
import os from 'node:os'
import { fileURLToPath } from 'node:url'
import { interleave, median } from '../measure.mjs'
import { openSockets, startRelay, wires } from './lib.mjs'

const { sub } = wires.v1

/** @param {number} ms */
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms))

if (process.argv[2] === 'crowd') {
  // The idle sockets: each subscribes a topic of its own, answers pings (ws does) and counts them.
  const [url = '', count = '0'] = process.argv.slice(3)
  const sockets = await openSockets(url, Number(count))
  const prefix = `idle-${randomUUID()}-`
  let pings = 0
  for (const [i, ws] of sockets.entries()) {
    ws.on('ping', () => pings++)
    ws.send(sub(`${prefix}${i}`))
  }
  // A round trip through the last socket still open: its `sub` was handled after every earlier one. Sockets whose
  // pongs came too late while thousands were opening may have been terminated: they are counted, not waited for.
  const open = sockets.filter((ws) => ws.readyState === ws.OPEN)
  const last = /** @type {import('ws').WebSocket} */ (open.at(-1))
  await Promise.race([
    new Promise((resolve) => {
      last.once('message', resolve)
      open[0]?.send(
        JSON.stringify({
          topic: `${prefix}${sockets.indexOf(last)}`,
          type: 'pub',
          payload: 'x',
          silent: true,
        }),
      )
    }),
    sleep(10_000),
  ])
  process.send?.({ type: 'ready', open: open.length })
  process.on('message', (/** @type {{ type: string }} */ message) => {
    if (message.type === 'pings')
      process.send?.({ type: 'pings', pings, open: sockets.filter((ws) => ws.readyState === ws.OPEN).length })
    else if (message.type === 'stop') {
      for (const ws of sockets) ws.terminate()
      process.exit(0)
    }
  })
} else {
  const idle = Number(process.env.IDLE ?? 10_000)
  const durationMs = Number(process.env.DURATION_MS ?? 5_000)
  const pingIntervalMs = Number(process.env.PING_INTERVAL_MS ?? 1_000)
  const periodMs = Number(process.env.PERIOD_MS ?? 5)
  const rounds = Number(process.env.ROUNDS ?? 2)
  /** @typedef {'sliced' | 'single' | 'none'} Sweep */
  const sweeps = /** @type {Sweep[]} */ ((process.env.SWEEPS ?? 'sliced,single,none').split(','))
  /** @type {Record<string, { p50Ms: number, p999Ms: number, maxMs: number, lost: number, pingsPerSocket: number, idleOpen: number }[]>} */
  const runs = Object.fromEntries(sweeps.map((sweep) => [sweep, []]))

  /** @param {number[]} sorted @param {number} p */
  const percentile = (sorted, p) =>
    sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0
  /** @param {number} value */
  const round = (value) => Math.round(value * 100) / 100

  /** @template T @param {Promise<T>} promise @param {number} ms @param {string} what @returns {Promise<T>} */
  const within = (promise, ms, what) =>
    Promise.race([
      promise,
      sleep(ms).then(() => {
        throw new Error(`${what} did not happen within ${ms} ms`)
      }),
    ])

  /** @param {Sweep} sweep */
  const measure = (sweep) => async () => {
    const relay = await startRelay('memory', '', undefined, {
      // `none`: no ping during the run, so what is left is the machine's own noise.
      pingIntervalMs: sweep === 'none' ? 3_600_000 : pingIntervalMs,
      ...(sweep === 'single' ? { pingSliceMs: pingIntervalMs } : {}),
    })
    const crowd = fork(fileURLToPath(import.meta.url), ['crowd', relay.url, String(idle)], {
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    })
    /** @param {string} type @returns {Promise<any>} */
    const reply = (type) =>
      new Promise((resolve, reject) => {
        crowd.once('message', resolve)
        crowd.once('exit', (code) => reject(new Error(`crowd exited with ${code}`)))
      }).then((message) => {
        if (/** @type {{ type: string }} */ (message).type !== type) throw new Error(`crowd sent ${message}`)
        return message
      })
    /** @returns {Promise<{ pings: number, open: number }>} pings the idle sockets received so far, sockets open */
    const pings = async () => {
      const answer = reply('pings')
      crowd.send({ type: 'pings' })
      return await answer
    }
    try {
      await within(reply('ready'), 120_000, `${idle} idle sockets`)
      const topic = randomUUID()
      /** @type {number[]} */
      const latencies = []
      let probed = false
      const [sender, receiver] = await openSockets(relay.url, 2, {
        onMessage: (index, text) => {
          if (index !== 1) return
          const start = text.indexOf('"payload":"') + 11
          const stamp = Number(text.slice(start, text.indexOf('"', start)))
          if (stamp < 0) probed = true
          else latencies.push(performance.now() - stamp)
        },
      })
      /** @param {number} stamp */
      const pub = (stamp) => JSON.stringify({ topic, type: 'pub', payload: String(stamp), silent: true })
      receiver?.send(sub(topic))
      for (let i = 0; i < 100 && !probed; i++) {
        sender?.send(pub(-1))
        await sleep(50)
      }
      if (!probed) throw new Error('the pair did not connect within 5 s')
      const pingsBefore = await pings()
      let sent = 0
      const timer = setInterval(() => {
        sent++
        sender?.send(pub(performance.now()))
      }, periodMs)
      await sleep(durationMs)
      clearInterval(timer)
      const pingsAfter = await pings()
      for (let i = 0; i < 40 && latencies.length < sent; i++) await sleep(50)
      sender?.terminate()
      receiver?.terminate()
      latencies.sort((a, b) => a - b)
      const run = {
        p50Ms: round(percentile(latencies, 50)),
        p999Ms: round(percentile(latencies, 99.9)),
        maxMs: round(latencies.at(-1) ?? 0),
        lost: sent - latencies.length,
        pingsPerSocket: round((pingsAfter.pings - pingsBefore.pings) / idle),
        idleOpen: pingsAfter.open,
      }
      runs[sweep]?.push(run)
      return run.maxMs
    } finally {
      if (crowd.exitCode === null) {
        const exited = new Promise((resolve) => crowd.once('exit', resolve))
        crowd.send({ type: 'stop' })
        await Promise.race([exited, sleep(3_000)])
        if (crowd.exitCode === null) crowd.kill('SIGKILL')
      }
      await relay.stop()
    }
  }

  await interleave(Object.fromEntries(sweeps.map((sweep) => [sweep, measure(sweep)])), { rounds })
  const summary = Object.fromEntries(
    Object.entries(runs).map(([sweep, list]) => [
      sweep,
      {
        p50Ms: median(list.map((r) => r.p50Ms)),
        p999Ms: median(list.map((r) => r.p999Ms)),
        maxMs: median(list.map((r) => r.maxMs)),
        worstMaxMs: Math.max(...list.map((r) => r.maxMs)),
        lost: list.reduce((sum, r) => sum + r.lost, 0),
        pingsPerSocket: median(list.map((r) => r.pingsPerSocket)),
        // Idle sockets still open at the end (the others were terminated for a pong that came too late).
        idleOpen: Math.min(...list.map((r) => r.idleOpen)),
      },
    ]),
  )
  console.log(
    JSON.stringify({
      bench: 'bridge-housekeeping',
      node: process.version,
      cpus: os.cpus().length,
      idleSockets: idle,
      pingIntervalMs,
      periodMs,
      durationMs,
      rounds,
      results: summary,
      runs,
      // No delivery held up more than 50 ms by housekeeping: the worst latency of every sliced run.
      targets: { slicedMaxUnder50Ms: (summary.sliced?.worstMaxMs ?? Number.POSITIVE_INFINITY) <= 50 },
    }),
  )
}
