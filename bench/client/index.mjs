#!/usr/bin/env node
// The session client beside @walletconnect/client@1.8.0 doing the same work in the same run, over one loopback
// relay in this process: createSession → URI, wallet approve → dapp connected, request round trip (p50/p99).
// Build first: `npx tsc -b packages/client`. Prints one JSON line; ratios are ours / v1 (below 1 = faster).
import { createRequire } from 'node:module'
import { performance } from 'node:perf_hooks'
import { createClient } from '@pairlink/client'
import { WebSocketServer } from 'ws'

const require = createRequire(import.meta.url)
const WalletConnect = require('@walletconnect/client').default

const SESSIONS = 50
const REQUESTS = 500
const meta = { description: 'Bench', url: 'https://bench.example', icons: [], name: 'Bench' }
const account = '0x9b2055d370f73ec7d8a03e965129118dc8f5bf83'

// The whole run is bounded: a hang fails the bench instead of the machine.
setTimeout(() => {
  console.error('bench/client: timed out after 60 s')
  process.exit(1)
}, 60_000).unref()

/** A v1-faithful relay (reference §3.3): deliver to other subscribers, else queue until the next `sub`. */
async function startRelay() {
  const topics = new Map()
  const queues = new Map()
  const server = new WebSocketServer({ host: '127.0.0.1', port: 0 })
  await new Promise((resolve) => server.once('listening', resolve))
  server.on('connection', (ws) => {
    ws.on('message', (data) => {
      const raw = data.toString()
      let frame
      try {
        frame = JSON.parse(raw)
      } catch {
        return
      }
      if (frame.type === 'sub') {
        topics.set(frame.topic, (topics.get(frame.topic) ?? new Set()).add(ws))
        for (const queued of queues.get(frame.topic) ?? []) ws.send(queued)
        queues.delete(frame.topic)
      } else if (frame.type === 'pub') {
        const others = [...(topics.get(frame.topic) ?? [])].filter((s) => s !== ws && s.readyState === 1)
        if (others.length === 0) queues.set(frame.topic, [...(queues.get(frame.topic) ?? []), raw])
        for (const other of others) other.send(raw)
      }
    })
    ws.on('close', () => {
      for (const set of topics.values()) set.delete(ws)
    })
  })
  return {
    url: `http://127.0.0.1:${server.address().port}`,
    close: () =>
      new Promise((resolve) => {
        for (const ws of server.clients) ws.terminate()
        server.close(resolve)
      }),
  }
}

const once = (subscribe) => new Promise((resolve) => subscribe(resolve))
const quantile = (values, q) => {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]
}
const round = (n) => Math.round(n * 1000) / 1000

/** Our dapp and wallet: one pairing, timed. */
async function pairOurs(bridge) {
  const dapp = createClient({ bridge, clientMeta: meta, storage: false })
  let t = performance.now()
  const uri = await dapp.createSession({ chainId: 1 })
  const createSession = performance.now() - t
  const wallet = createClient({ uri, clientMeta: meta, storage: false })
  await once((resolve) => wallet.once('session_request', resolve))
  const connected = once((resolve) => dapp.once('connect', resolve))
  t = performance.now()
  wallet.approveSession({ chainId: 1, accounts: [account] })
  await connected
  const approve = performance.now() - t
  wallet.on('call_request', ({ id }) => wallet.approveRequest({ id, result: '0x1' }))
  return {
    createSession,
    approve,
    request: () => dapp.request({ method: 'eth_blockNumber', params: [] }),
    close() {
      dapp.close()
      wallet.close()
    },
  }
}

/** v1's dapp and wallet doing the same. */
async function pairV1(bridge) {
  const dapp = new WalletConnect({ bridge, clientMeta: meta })
  // v1 opens its socket in the constructor; let both sides start from an open socket.
  await new Promise((resolve) => setTimeout(resolve, 20))
  const displayed = once((resolve) => dapp.on('display_uri', (_e, payload) => resolve(payload.params[0])))
  let t = performance.now()
  await dapp.createSession({ chainId: 1 })
  const uri = await displayed
  const createSession = performance.now() - t
  const wallet = new WalletConnect({ uri, clientMeta: meta })
  await once((resolve) => wallet.on('session_request', resolve))
  const connected = once((resolve) => dapp.on('connect', resolve))
  t = performance.now()
  wallet.approveSession({ chainId: 1, accounts: [account] })
  await connected
  const approve = performance.now() - t
  wallet.on('call_request', (_e, { id }) => wallet.approveRequest({ id, result: '0x1' }))
  return {
    createSession,
    approve,
    request: () => dapp.sendCustomRequest({ method: 'eth_blockNumber', params: [] }),
    close() {
      dapp.transportClose()
      wallet.transportClose()
    },
  }
}

/** Sessions and requests alternate between the two clients, so machine noise hits both alike. */
async function measure(bridge) {
  const ours = { createSession: [], approve: [], roundTrip: [] }
  const v1 = { createSession: [], approve: [], roundTrip: [] }
  for (let i = 0; i < SESSIONS; i++) {
    for (const [pair, into] of [
      [pairOurs, ours],
      [pairV1, v1],
    ]) {
      const session = await pair(bridge)
      into.createSession.push(session.createSession)
      into.approve.push(session.approve)
      session.close()
    }
  }
  const a = await pairOurs(bridge)
  const b = await pairV1(bridge)
  for (let j = 0; j < 20; j++) await Promise.all([a.request(), b.request()]) // warm-up
  for (let j = 0; j < REQUESTS; j++) {
    for (const [session, into] of [
      [a, ours],
      [b, v1],
    ]) {
      const t = performance.now()
      await session.request()
      into.roundTrip.push(performance.now() - t)
    }
  }
  a.close()
  b.close()
  return { ours, v1 }
}

const relay = await startRelay()
const { ours, v1 } = await measure(relay.url)
await relay.close()

const summary = (m) => ({
  createSessionMs: { p50: round(quantile(m.createSession, 0.5)) },
  approveToConnectedMs: { p50: round(quantile(m.approve, 0.5)) },
  requestRoundTripMs: { p50: round(quantile(m.roundTrip, 0.5)), p99: round(quantile(m.roundTrip, 0.99)) },
})
const a = summary(ours)
const b = summary(v1)
console.log(
  JSON.stringify({
    bench: 'client',
    baseline: '@walletconnect/client@1.8.0',
    sessions: SESSIONS,
    requests: REQUESTS,
    ours: a,
    v1: b,
    ratio: {
      createSession: round(a.createSessionMs.p50 / b.createSessionMs.p50),
      approveToConnected: round(a.approveToConnectedMs.p50 / b.approveToConnectedMs.p50),
      requestRoundTripP50: round(a.requestRoundTripMs.p50 / b.requestRoundTripMs.p50),
      requestRoundTripP99: round(a.requestRoundTripMs.p99 / b.requestRoundTripMs.p99),
    },
  }),
)
process.exit(0)
