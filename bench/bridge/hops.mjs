// The transport ceiling of a cross-node ping-pong at one pair: one ~300-byte message at a time around a ring of Node
// processes over loopback TCP, each forwarding what it reads and nothing else. `two`: the load generator and one relay
// (what one node costs); `three`: the load generator and two relays (what a message crossing two nodes costs, with no
// work at all in either). `threeVsTwo` bounds relay.mjs's `crossNode.pingpong1` on this machine: the bridge only
// adds work to each hop. `cpuUsPerForward`: the forwarders' CPU time per message each forwards (read + write and the
// wake-up of the next process; three processes on two vCPUs make each dearer). Prints one JSON line. Options: DURATION_MS (per run, default 1000), ROUNDS (default 7).
import { fork } from 'node:child_process'
import { connect, createServer } from 'node:net'
import os from 'node:os'
import { interleave, median, pairedRatio } from '../measure.mjs'

const durationMs = Number(process.env.DURATION_MS ?? 1_000)
const rounds = Number(process.env.ROUNDS ?? 7)

/** @param {import('node:net').Socket} socket */
const fast = (socket) => socket.setNoDelay(true)

if (process.argv[2] === 'hop') {
  // A forwarder: listens, then (told where) connects on and writes there whatever it reads.
  /** @type {import('node:net').Socket | undefined} */
  let next
  const server = createServer((socket) => {
    fast(socket)
    socket.on('data', (chunk) => next?.write(chunk))
  })
  server.listen(0, '127.0.0.1', () =>
    process.send?.(/** @type {import('node:net').AddressInfo} */ (server.address()).port),
  )
  process.on('message', (/** @type {{ next?: number, usage?: boolean }} */ message) => {
    if (message.usage) {
      const { user, system } = process.cpuUsage()
      process.send?.({ cpuUs: user + system })
      return
    }
    if (message.next === undefined) process.exit(0)
    next = connect(message.next, '127.0.0.1', () => process.send?.('connected'))
    fast(next)
  })
} else {
  /** @type {Record<string, number[]>} */
  const cpuPerForward = { two: [], three: [] }
  /**
   * Round trips per second around the load generator and `hops` forwarders; the forwarders' CPU time per message
   * forwarded goes to `cpuPerForward[name]` (what one hop costs a process that does nothing else).
   * @param {string} name @param {number} hops
   */
  const ring = async (name, hops) => {
    const children = Array.from({ length: hops }, () => fork(new URL(import.meta.url), ['hop']))
    /** @param {import('node:child_process').ChildProcess} child @returns {Promise<any>} */
    const reply = (child) => new Promise((resolve) => child.once('message', resolve))
    try {
      const ports = await Promise.all(children.map(reply))
      const back = createServer()
      /** @type {Promise<import('node:net').Socket>} */
      const returned = new Promise((resolve) => back.once('connection', resolve))
      await new Promise((resolve) => back.listen(0, '127.0.0.1', () => resolve(undefined)))
      const home = /** @type {import('node:net').AddressInfo} */ (back.address()).port
      for (let i = 0; i < hops; i++) {
        const connected = reply(/** @type {import('node:child_process').ChildProcess} */ (children[i]))
        children[i]?.send({ next: i + 1 < hops ? ports[i + 1] : home })
        await connected
      }
      const first = connect(ports[0], '127.0.0.1')
      fast(first)
      const last = await returned
      fast(last)
      const message = Buffer.alloc(300, 97)
      /** @returns {Promise<number>} */
      const forwardersCpu = async () => {
        let sum = 0
        for (const child of children) {
          const answer = reply(child)
          child.send({ usage: true })
          sum += (await answer).cpuUs
        }
        return sum
      }
      let count = 0
      let running = true
      const done = new Promise((resolve) => {
        last.on('data', () => {
          count++
          if (running) first.write(message)
          else resolve(undefined)
        })
      })
      const cpuBefore = await forwardersCpu()
      const started = performance.now()
      first.write(message)
      await new Promise((resolve) => setTimeout(resolve, durationMs))
      running = false
      const elapsed = performance.now() - started
      await done
      cpuPerForward[name]?.push(Math.round(((await forwardersCpu()) - cpuBefore) / (count * hops)))
      first.destroy()
      last.destroy()
      back.close()
      return Math.round((count / elapsed) * 1000)
    } finally {
      for (const child of children) child.send({})
    }
  }

  const { medians, samples } = await interleave(
    { two: () => ring('two', 1), three: () => ring('three', 2) },
    { rounds },
  )
  console.log(
    JSON.stringify({
      bench: 'bridge-hops',
      node: process.version,
      cpus: os.cpus().length,
      loadavg: os.loadavg().map((load) => Math.round(load * 100) / 100),
      durationMs,
      rounds,
      roundTripsPerSec: medians,
      samples,
      threeVsTwo: pairedRatio(samples.three, samples.two),
      cpuUsPerForward: { two: median(cpuPerForward.two ?? []), three: median(cpuPerForward.three ?? []) },
    }),
  )
}
