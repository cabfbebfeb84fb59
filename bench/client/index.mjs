#!/usr/bin/env node
// The session client beside @walletconnect/client@1.8.0 doing the same work in the same run, over the real
// @pairlink/bridge running in a child process (so the relay does not share an event loop with the clients it
// serves): a pairing (createSession → wallet approves → dapp connected) and a request round trip. Each round runs
// ours then v1; the figures are medians over the interleaved rounds (bench/measure.mjs).
// Build first: `node scripts/build.mjs`. Prints one JSON line; ratios are ours / v1 (below 1 = faster).
import { fork } from 'node:child_process'
import { performance } from 'node:perf_hooks'
import { createInterface } from 'node:readline'
import { createClient, dappActions, walletActions } from '@pairlink/client'
import { interleave, medianTime } from '../measure.mjs'

/**
 * The parts of v1's connector this bench drives.
 * @typedef {{
 *   on(event: string, callback: (error: Error | null, payload: any) => void): void
 *   createSession(options: { chainId: number }): Promise<void>
 *   approveSession(parameters: { chainId: number, accounts: string[] }): void
 *   approveRequest(parameters: { id: number, result: unknown }): void
 *   sendCustomRequest(request: { method: string, params: unknown[] }): Promise<unknown>
 *   transportClose(): void
 * }} V1Connector
 */

// The CJS build sits behind one or two `default`s depending on the loader.
const v1Module = /** @type {{ default: { default?: unknown } }} */ (await import('@walletconnect/client'))
const WalletConnect = /** @type {new (options: object) => V1Connector} */ (
  v1Module.default.default ?? v1Module.default
)

const ROUNDS = 31
const REQUESTS_PER_ROUND = 20
const meta = { description: 'Bench', url: 'https://bench.example', icons: [], name: 'Bench' }
const account = '0x9b2055d370f73ec7d8a03e965129118dc8f5bf83'

// The whole run is bounded: a hang fails the bench instead of the machine.
setTimeout(() => {
  console.error('bench/client: timed out after 120 s')
  process.exit(1)
}, 120_000).unref()

/** Starts the bridge in a child process and resolves with its URL and the child. */
async function startBridge() {
  const child = fork(new URL('./bridge.mjs', import.meta.url), {
    stdio: ['ignore', 'pipe', 'inherit', 'ipc'],
  })
  if (!child.stdout) throw new Error('bench/client: the bridge has no stdout')
  const lines = createInterface({ input: child.stdout })
  const url = await new Promise((resolve, reject) => {
    lines.once('line', resolve)
    child.once('exit', (code) => reject(new Error(`bench/client: the bridge exited (${code})`)))
  })
  lines.close()
  return { url: String(url), child }
}

/**
 * Resolves with the first payload `subscribe` hands its callback.
 * @template value
 * @param {(resolve: (value: value) => void) => unknown} subscribe
 * @returns {Promise<value>}
 */
const once = (subscribe) => new Promise((resolve) => subscribe(resolve))
const round = (/** @type {number} */ n) => Math.round(n * 1000) / 1000

/**
 * Our dapp and wallet: one pairing, timed from createSession to the dapp's `connect`.
 * @param {string} bridge
 */
async function pairOurs(bridge) {
  const dapp = createClient({ bridge, clientMeta: meta, storage: false }).extend(dappActions)
  const t = performance.now()
  const uri = await dapp.createSession({ chainId: 1 })
  const wallet = createClient({ uri, clientMeta: meta, storage: false }).extend(walletActions)
  await once((resolve) => wallet.once('session_request', resolve))
  const connected = once((resolve) => dapp.once('connect', resolve))
  await wallet.approveSession({ chainId: 1, accounts: [account] })
  await connected
  const pairing = performance.now() - t
  wallet.on('call_request', ({ id }) => void wallet.approveRequest({ id, result: '0x1' }))
  return {
    pairing,
    request: () => dapp.request({ method: 'eth_blockNumber', params: [] }),
    close() {
      void dapp.close()
      void wallet.close()
    },
  }
}

/**
 * v1's dapp and wallet doing the same.
 * @param {string} bridge
 */
async function pairV1(bridge) {
  const dapp = new WalletConnect({ bridge, clientMeta: meta })
  const displayed = once((resolve) => dapp.on('display_uri', (_e, payload) => resolve(payload.params[0])))
  const t = performance.now()
  await dapp.createSession({ chainId: 1 })
  const uri = await displayed
  const wallet = new WalletConnect({ uri, clientMeta: meta })
  await once((resolve) => wallet.on('session_request', resolve))
  const connected = once((resolve) => dapp.on('connect', resolve))
  wallet.approveSession({ chainId: 1, accounts: [account] })
  await connected
  const pairing = performance.now() - t
  wallet.on('call_request', (_e, { id }) => wallet.approveRequest({ id, result: '0x1' }))
  return {
    pairing,
    request: () => dapp.sendCustomRequest({ method: 'eth_blockNumber', params: [] }),
    close() {
      dapp.transportClose()
      wallet.transportClose()
    },
  }
}

/**
 * A fresh pairing, timed, then closed.
 * @param {typeof pairOurs | typeof pairV1} pair
 * @param {string} bridge
 */
async function pairing(pair, bridge) {
  const session = await pair(bridge)
  session.close()
  return session.pairing
}

const bridge = await startBridge()
try {
  const a = await pairOurs(bridge.url)
  const b = await pairV1(bridge.url)
  // Warm-up: JIT and sockets settle before anything is timed.
  for (let i = 0; i < 20; i++) await Promise.all([a.request(), b.request()])
  const { medians } = await interleave(
    {
      oursPairing: () => pairing(pairOurs, bridge.url),
      v1Pairing: () => pairing(pairV1, bridge.url),
      oursRoundTrip: () => medianTime(REQUESTS_PER_ROUND, a.request),
      v1RoundTrip: () => medianTime(REQUESTS_PER_ROUND, b.request),
    },
    { rounds: ROUNDS },
  )
  a.close()
  b.close()
  console.log(
    JSON.stringify({
      bench: 'client',
      baseline: '@walletconnect/client@1.8.0',
      relay: '@pairlink/bridge in a child process',
      rounds: ROUNDS,
      requestsPerRound: REQUESTS_PER_ROUND,
      ours: { pairingMs: round(medians.oursPairing), requestRoundTripMs: round(medians.oursRoundTrip) },
      v1: { pairingMs: round(medians.v1Pairing), requestRoundTripMs: round(medians.v1RoundTrip) },
      ratio: {
        pairing: round(medians.oursPairing / medians.v1Pairing),
        requestRoundTrip: round(medians.oursRoundTrip / medians.v1RoundTrip),
      },
    }),
  )
} finally {
  bridge.child.kill()
}
process.exit(0)
