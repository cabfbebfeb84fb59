#!/usr/bin/env node
// The v2 Sign client (@pairlink/client/v2) beside the published @walletconnect/sign-client@2.25.0 doing the same work
// in the same run, over the real @pairlink/bridge relay in a child process: URI creation (the dapp's connect() called
// → its `wc:` URI in hand, the proposal published on the relay, as both connect()s wait for), a pairing (connect →
// wallet pairs and approves → the dapp's approval() resolves) and a request round trip. Each side is a dapp and a
// wallet of its own kind, created once; each round runs ours then the SDK's; figures are medians over the rounds and
// ratios the medians of each round's ours / SDK (bench/measure.mjs). Build first: `node scripts/build.mjs`. Prints
// one JSON line, with the machine's load average at the end of the run; a ratio below 1 = ours faster.
import { fork } from 'node:child_process'
import { randomUUID } from 'node:crypto'
import os from 'node:os'
import { performance } from 'node:perf_hooks'
import { createInterface } from 'node:readline'
import { approve, connect, createSignClient, pair, request, respond } from '@pairlink/client/v2'
import { interleave, medianTime, pairedRatio } from '../measure.mjs'

// Both SDK peers live in this process: each needs a Core of its own (docs/relay-v2.md §7).
process.env.DISABLE_GLOBAL_CORE = 'true'
const { SignClient } = await import('@walletconnect/sign-client')

const ROUNDS = Number(process.env.ROUNDS ?? 21)
const REQUESTS_PER_ROUND = 20
const debug = process.env.DEBUG ? (/** @type {string} */ text) => console.error(text) : () => {}
const metadata = { name: 'Bench', description: 'Bench', url: 'https://bench.example', icons: [] }
const account = 'eip155:1:0x9b2055d370f73ec7d8a03e965129118dc8f5bf83'
const optionalNamespaces = { eip155: { chains: ['eip155:1'], methods: ['eth_blockNumber'], events: [] } }
const namespaces = {
  eip155: { chains: ['eip155:1'], accounts: [account], methods: ['eth_blockNumber'], events: [] },
}
const call = { chainId: 'eip155:1', request: { method: 'eth_blockNumber', params: [] } }

// The whole run is bounded: a hang fails the bench instead of the machine.
setTimeout(() => {
  console.error('bench/clientV2: timed out after 180 s')
  process.exit(1)
}, 180_000).unref()

/** Starts the relay in a child process and resolves with its URL and the child. */
async function startRelay() {
  const child = fork(new URL('./relay.mjs', import.meta.url), { stdio: ['ignore', 'pipe', 'inherit', 'ipc'] })
  if (!child.stdout) throw new Error('bench/clientV2: the relay has no stdout')
  const lines = createInterface({ input: child.stdout })
  const url = await new Promise((resolve, reject) => {
    lines.once('line', resolve)
    child.once('exit', (code) => reject(new Error(`bench/clientV2: the relay exited (${code})`)))
  })
  lines.close()
  return { url: String(url), child }
}

const round = (/** @type {number} */ n) => Math.round(n * 1000) / 1000

/**
 * Our dapp and wallet, created once; `pairing()` times one more session (connect → URI, and → approved), `request()`
 * one round trip on the first.
 * @param {string} relayUrl
 */
async function ours(relayUrl) {
  const dapp = createSignClient({ relayUrl, metadata, storage: false })
  const wallet = createSignClient({ relayUrl, metadata, storage: false })
  wallet.on('session_proposal', ({ id }) => void approve(wallet, { id, namespaces }))
  wallet.on(
    'session_request',
    ({ id, topic }) => void respond(wallet, { topic, response: { id, jsonrpc: '2.0', result: '0x1' } }),
  )
  const pairing = async () => {
    const t = performance.now()
    const { uri, approval } = await connect(dapp, { optionalNamespaces })
    const uriMs = performance.now() - t
    await pair(wallet, { uri: /** @type {string} */ (uri) })
    const session = await approval()
    return { uriMs, pairingMs: performance.now() - t, topic: session.topic }
  }
  const { topic } = await pairing()
  return {
    pairing,
    request: () => request(dapp, { topic, ...call }),
    close: () => Promise.all([dapp.close(), wallet.close()]),
  }
}

/**
 * The SDK's dapp and wallet (sign-client 2.25.0) doing the same.
 * @param {string} relayUrl
 */
async function sdk(relayUrl) {
  // The SDK wallet's request queue waits 1 s after each answer before it emits the next request (its
  // `requestQueueDelay`): off, so requests are timed, not that pause.
  const init = (/** @type {string} */ name) =>
    SignClient.init({
      relayUrl,
      projectId: '0123456789abcdef0123456789abcdef',
      customStoragePrefix: `${name}-${randomUUID()}`,
      logger: 'silent',
      metadata,
      signConfig: { disableRequestQueue: true },
    })
  const [dapp, wallet] = await Promise.all([init('dapp'), init('wallet')])
  wallet.on('session_proposal', ({ id }) => void wallet.approve({ id, namespaces }).catch(() => {}))
  wallet.on(
    'session_request',
    ({ id, topic }) => void wallet.respond({ topic, response: { id, jsonrpc: '2.0', result: '0x1' } }),
  )
  const pairing = async () => {
    const t = performance.now()
    const { uri, approval } = await dapp.connect({ optionalNamespaces })
    const uriMs = performance.now() - t
    await wallet.pair({ uri: /** @type {string} */ (uri) })
    const session = await approval()
    return { uriMs, pairingMs: performance.now() - t, topic: session.topic }
  }
  const { topic } = await pairing()
  return {
    pairing,
    request: () => dapp.request({ topic, ...call }),
    async close() {
      for (const client of [dapp, wallet]) {
        client.core.heartbeat.stop()
        await client.core.relayer.transportClose().catch(() => {})
      }
    },
  }
}

const relay = await startRelay()
try {
  const a = await ours(relay.url)
  debug('ours paired')
  const b = await sdk(relay.url)
  debug('sdk paired')
  // Warm-up: JIT and sockets settle before anything is timed.
  for (let i = 0; i < 20; i++) await Promise.all([a.request(), b.request()])
  debug('warmed up')
  // URI creation is timed on its own pairing, whose rest then runs untimed: no proposal is left pending to weigh on
  // the rounds after it, and no relay work of the last one is still in flight when the next starts.
  const { medians, samples } = await interleave(
    {
      oursUri: async () => (await a.pairing()).uriMs,
      sdkUri: async () => (await b.pairing()).uriMs,
      oursPairing: async () => (await a.pairing()).pairingMs,
      sdkPairing: async () => (await b.pairing()).pairingMs,
      oursRoundTrip: () => medianTime(REQUESTS_PER_ROUND, a.request),
      sdkRoundTrip: () => medianTime(REQUESTS_PER_ROUND, b.request),
    },
    { rounds: ROUNDS },
  )
  await Promise.all([a.close(), b.close()])
  console.log(
    JSON.stringify({
      bench: 'clientV2',
      baseline: '@walletconnect/sign-client@2.25.0',
      relay: '@pairlink/bridge in a child process',
      cpus: os.cpus().length,
      loadavg: os.loadavg().map((load) => Math.round(load * 100) / 100),
      rounds: ROUNDS,
      requestsPerRound: REQUESTS_PER_ROUND,
      ours: {
        uriMs: round(medians.oursUri),
        pairingMs: round(medians.oursPairing),
        requestRoundTripMs: round(medians.oursRoundTrip),
      },
      sdk: {
        uriMs: round(medians.sdkUri),
        pairingMs: round(medians.sdkPairing),
        requestRoundTripMs: round(medians.sdkRoundTrip),
      },
      ratio: {
        uri: pairedRatio(samples.oursUri, samples.sdkUri),
        pairing: pairedRatio(samples.oursPairing, samples.sdkPairing),
        requestRoundTrip: pairedRatio(samples.oursRoundTrip, samples.sdkRoundTrip),
      },
    }),
  )
} finally {
  relay.child.kill()
}
process.exit(0)
