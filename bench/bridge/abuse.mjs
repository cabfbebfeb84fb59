// What one address can make the v2 relay hold, and how long others wait meanwhile: the attacks of issue 25, each on a
// fresh relay with every limit at its default (the mailbox total at 32 MiB, so that filling it takes seconds), on the
// memory store and on Redis. While an attacker on 127.0.0.2 works, a bystander on 127.0.0.9 (a thread of its own)
// round-trips a publish to its own second socket every 20 ms. One JSON line: per attack × store, the relay's peak RSS (VmHWM) over its RSS
// before, Redis's used memory before and at its peak, the mailbox as counted, the bystander's round trips (p50/p99/
// max ms, before and during), the relay's event-loop delay during (p99/max ms: how long it held every socket at a time,
// apart from what the load generator's own work costs the bystander on this machine's two cores), what the attacker
// was refused, and whether the relay died. Run `node scripts/build.mjs`
// first; about 2 minutes. Options: ATTACKS (comma-separated names), STORES (memory,redis).
import { readFileSync } from 'node:fs'
import { connect } from 'node:net'
import { startRedis } from '@pairlink/test-kit/redis'
import { median } from '../measure.mjs'
import { startRelay } from './lib.mjs'
import { client, publish, request, sleep, startBystander, topic } from './v2clients.mjs'

const MAX_TOTAL = 33_554_432

const stats = (/** @type {number[]} */ values) => {
  const sorted = [...values].sort((x, y) => x - y)
  const at = (/** @type {number} */ q) =>
    Math.round((sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0) * 10) / 10
  return { n: values.length, p50: Math.round(median(values) * 10) / 10, p99: at(0.99), max: at(1) }
}
const statusKb = (/** @type {number} */ pid, /** @type {string} */ field) => {
  try {
    return (
      Number(new RegExp(`${field}:\\s+(\\d+)`).exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) *
      1024
    )
  } catch {
    return 0
  }
}
/** Redis's `used_memory`, through one INFO on a fresh connection. */
const redisUsed = (/** @type {string} */ url) =>
  new Promise((resolve) => {
    const { hostname, port } = new URL(url)
    const socket = connect(Number(port), hostname, () => socket.write('INFO memory\r\n'))
    let text = ''
    socket.on('data', (data) => {
      text += data
      const match = /used_memory:(\d+)/.exec(text)
      if (match) {
        resolve(Number(match[1]))
        socket.destroy()
      }
    })
    socket.on('error', () => resolve(0))
  })
const mailboxBytes = async (/** @type {string} */ url) => {
  const text = await fetch(`${url.replace('ws:', 'http:')}/metrics`).then(
    (r) => r.text(),
    () => '',
  )
  return Number(/^pairlink_relay_v2_mailbox_bytes (\d+)/m.exec(text)?.[1] ?? Number.NaN)
}
const merge = (/** @type {Record<string, number>[]} */ ...all) => {
  /** @type {Record<string, number>} */
  const out = {}
  for (const one of all) for (const [k, v] of Object.entries(one)) out[k] = (out[k] ?? 0) + v
  return out
}

/** The attacks: each gets the relay's URL and returns what it wants reported. */
const attacks = {
  // 400 publishes of a 1-character message with a 500 KB attestation.
  attestation: async (/** @type {string} */ url) => {
    const c = await client(url)
    const attestation = 'e'.repeat(500_000)
    for (let i = 0; i < 400; i++) {
      c.ws.send(publish(topic(i), 'x', { attestation }))
      if (i % 20 === 19) await sleep(10)
    }
    await sleep(500)
    return { refused: c.refused }
  },
  // One topic holding ~1 MB, fetched and subscribed 500 times in one request, by two sockets that never read.
  duplicates: async (/** @type {string} */ url) => {
    const owner = await client(url, '127.0.0.3')
    const held = topic(0xd0)
    for (let i = 0; i < 4; i++) owner.ws.send(publish(held, 'm'.repeat(250_000)))
    await sleep(300)
    const readers = [
      await client(url, '127.0.0.2', false),
      await client(url, '127.0.0.2', false),
      await client(url),
    ]
    for (const [i, r] of readers.entries()) {
      if (i < 2) /** @type {any} */ (r.ws)._socket.pause()
      r.ws.send(request('irn_batchFetchMessages', { topics: Array(500).fill(held) }))
      r.ws.send(request('irn_batchSubscribe', { topics: Array(500).fill(held) }))
    }
    await sleep(3_000)
    return {
      refused: merge(...readers.map((r) => r.refused)),
      readersClosed: readers.filter((r) => r.closedWith !== undefined).length,
    }
  },
  // 50 sockets that never read but ack every 3 s, subscribed to a topic that gets 64 KB messages 50 times a second.
  slowReaders: async (/** @type {string} */ url) => {
    const fed = topic(0x51)
    /** @type {Awaited<ReturnType<typeof client>>[]} */
    const readers = []
    for (let i = 0; i < 50; i++) {
      const r = await client(url, '127.0.0.2', false)
      r.ws.send(request('irn_subscribe', { topic: fed }))
      readers.push(r)
    }
    await sleep(200)
    for (const r of readers) /** @type {any} */ (r.ws)._socket.pause()
    const acks = setInterval(() => {
      for (const r of readers)
        if (r.closedWith === undefined) r.ws.send('{"id":1,"jsonrpc":"2.0","result":true}')
    }, 3_000)
    const feeder = await client(url, '127.0.0.4')
    const end = performance.now() + 12_000
    while (performance.now() < end) {
      feeder.ws.send(publish(fed, 'f'.repeat(65_536)))
      await sleep(20)
    }
    clearInterval(acks)
    return {
      readersDropped: readers.filter((r) => r.closedWith !== undefined).length,
      feederRefused: feeder.refused,
    }
  },
  // Networks 127.1.N.0/24, two addresses each, publishing 256 KB messages nobody reads until refused.
  fill: async (/** @type {string} */ url) => {
    const perNetwork = []
    for (let n = 1; n <= 40; n++) {
      let kept = 0
      for (const host of [2, 3]) {
        const c = await client(url, `127.1.${n}.${host}`)
        for (let i = 0; i < 200; i++) {
          const before = Object.values(c.refused).length
          c.ws.send(publish(topic(n * 1000 + host * 300 + i), 'p'.repeat(262_144)))
          await new Promise((resolve) => setTimeout(resolve, 15))
          if (Object.values(c.refused).length > before) break
          kept += 262_144
        }
        c.ws.terminate()
      }
      perNetwork.push(kept)
      if ((await mailboxBytes(url)) > 0.99 * MAX_TOTAL) break
    }
    return {
      firstNetworkBytes: perNetwork[0],
      networks: perNetwork.length,
      filledFraction: Math.round(((await mailboxBytes(url)) / MAX_TOTAL) * 1000) / 1000,
    }
  },
  // 20 000 frames that are not JSON.
  junk: async (/** @type {string} */ url) => {
    const c = await client(url)
    let answers = 0
    c.ws.on('message', () => answers++)
    for (let i = 0; i < 20_000 && c.ws.readyState === c.ws.OPEN; i++) c.ws.send('{not json')
    await sleep(500)
    return { closedWith: c.closedWith ?? null, answered: answers }
  },
}

const wanted = process.env.ATTACKS?.split(',') ?? Object.keys(attacks)
const stores = process.env.STORES?.split(',') ?? ['memory', 'redis']
const redis = stores.includes('redis') ? await startRedis() : undefined
const results = []
try {
  for (const store of stores)
    for (const name of wanted) {
      const attack = attacks[/** @type {keyof typeof attacks} */ (name)]
      const relay = await startRelay(
        /** @type {'memory' | 'redis'} */ (store),
        redis?.url ?? '',
        `${redis?.keyPrefix ?? ''}abuse:${name}:`,
        { defaults: true, relay: { maxTotalBytes: MAX_TOTAL } },
      )
      try {
        const watcher = await startBystander(relay.url)
        await sleep(1_000)
        const baseline = stats(await watcher.take())
        await relay.loopDelay()
        const rssBefore = statusKb(relay.pid, 'VmRSS')
        const redisBefore = redis ? await redisUsed(redis.url) : 0
        let redisPeak = redisBefore
        const sampler = setInterval(async () => {
          if (redis) redisPeak = Math.max(redisPeak, /** @type {number} */ (await redisUsed(redis.url)))
        }, 200)
        const report = await attack(relay.url)
        clearInterval(sampler)
        const during = stats(await watcher.take())
        const loop = await relay.loopDelay()
        await watcher.stop()
        const alive = statusKb(relay.pid, 'VmRSS') > 0
        results.push({
          store,
          attack: name,
          ...report,
          relayRssBeforeMb: Math.round(rssBefore / 1e5) / 10,
          relayRssPeakMb: Math.round(statusKb(relay.pid, 'VmHWM') / 1e5) / 10,
          redisUsedBeforeMb: Math.round(redisBefore / 1e5) / 10,
          redisUsedPeakMb: Math.round(redisPeak / 1e5) / 10,
          mailboxBytes: await mailboxBytes(relay.url),
          bystanderBeforeMs: baseline,
          bystanderDuringMs: during,
          relayLoopDelayMs: { p99: Math.round(loop.p99Ms * 10) / 10, max: Math.round(loop.maxMs * 10) / 10 },
          relayAlive: alive,
        })
      } finally {
        await relay.stop()
      }
    }
} finally {
  await redis?.stop()
}
console.log(JSON.stringify({ bench: 'bridge/abuse', maxTotalBytes: MAX_TOTAL, results }))
