#!/usr/bin/env node
// RPC requests a connected, idle dapp costs its node: @pairlink/provider beside v1's @walletconnect/web3-provider@1.8.0
// in the same run, against the same anvil chain, each behind its own counting JSON-RPC proxy. Both are connected to
// a wallet (our client, wallet role) through the real bridge, both poll every 1000 ms, and nobody calls them: what
// reaches the node is polling alone. Both poll all the time; each round counts ours over one window, then v1's over
// the next (bench/measure.mjs), first on a quiet chain, then with a block a second. Prints one JSON line of medians.
// Run `node scripts/build.mjs` first (it imports the built packages).
import { createServer } from 'node:http'
import { createRequire } from 'node:module'
import { setTimeout as sleep } from 'node:timers/promises'
import { createBridgeServer } from '@pairlink/bridge'
import { createClient, walletActions } from '@pairlink/client'
import { createProvider } from '@pairlink/provider'
import { waitFor } from '@pairlink/test-kit'
import { ANVIL_ACCOUNT, ANVIL_CHAIN_ID, rpc, startAnvil } from '@pairlink/test-kit/anvil'
import pino from 'pino'
import { interleave, median } from '../measure.mjs'

// v1's packages are CommonJS with their class on `default`.
const requireCjs = createRequire(import.meta.url)
/** @type {typeof import('@walletconnect/client').default} */
const WalletConnect = requireCjs('@walletconnect/client').default
/** @type {typeof import('@walletconnect/web3-provider').default} */
const WalletConnectProvider = requireCjs('@walletconnect/web3-provider').default

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5)
const POLLING_INTERVAL = 1000
/** One quiet measurement: this many ms of a chain without new blocks. */
const QUIET_MS = 4000
/** One busy measurement: this many new blocks, one a second. */
const BUSY_BLOCKS = 5
// Setup, then each round's two quiet windows and two busy ones (each up to a block longer), with room for a loaded
// machine: past this the bench fails instead of hanging.
const LIMIT_MS = 60_000 + 2 * ROUNDS * 2 * (QUIET_MS + (BUSY_BLOCKS + 1) * 1000)
const CHAIN_ID = ANVIL_CHAIN_ID

/**
 * @typedef {object} CountingProxy
 * @property {string} url
 * @property {Map<string, number>} counts requests by method while counting
 * @property {() => void} start
 * @property {() => void} stop
 * @property {() => number} total
 * @property {() => Promise<void>} close
 */

/**
 * A JSON-RPC proxy on 127.0.0.1 that counts each request (a batch counts each call) by method. It forwards only
 * `jsonrpc`, `id`, `method`, `params`: v1 leaks `skipCache: true` into its bodies (reference §7.2), which anvil
 * refuses with -32600 (geth and hosted nodes ignore it); without this v1 would poll an error loop, not blocks.
 * @param {string} target the node's URL
 * @returns {Promise<CountingProxy>}
 */
async function startCountingProxy(target) {
  /** @type {Map<string, number>} */
  const counts = new Map()
  let counting = false
  const server = createServer((req, res) => {
    /** @type {Buffer[]} */
    const chunks = []
    req.on('data', (/** @type {Buffer} */ chunk) => chunks.push(chunk))
    req.on('end', async () => {
      /** @typedef {{ jsonrpc: string, id: number | string, method: string, params?: unknown }} Call */
      const parsed = /** @type {Call | Call[]} */ (JSON.parse(Buffer.concat(chunks).toString('utf8')))
      const calls = (Array.isArray(parsed) ? parsed : [parsed]).map(({ jsonrpc, id, method, params }) => ({
        jsonrpc,
        id,
        method,
        params,
      }))
      if (counting) for (const { method } of calls) counts.set(method, (counts.get(method) ?? 0) + 1)
      const body = JSON.stringify(Array.isArray(parsed) ? calls : calls[0])
      try {
        const upstream = await fetch(target, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json' },
          body,
        })
        res.writeHead(upstream.status, { 'Content-Type': 'application/json' }).end(await upstream.text())
      } catch {
        res.writeHead(502).end()
      }
    })
  })
  const port = await new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve(/** @type {import('node:net').AddressInfo} */ (server.address()).port),
    ),
  )
  return {
    url: `http://127.0.0.1:${port}`,
    counts,
    start: () => {
      counting = true
    },
    stop: () => {
      counting = false
    },
    total: () => [...counts.values()].reduce((a, b) => a + b, 0),
    close: () => {
      server.closeAllConnections()
      return new Promise((resolve) => server.close(() => resolve()))
    },
  }
}

/** @typedef {import('@pairlink/client').WalletClient} Client */

/**
 * Our client in the wallet role: approves the session a dapp's URI asks for.
 * @param {string} uri
 * @returns {Client}
 */
function startWallet(uri) {
  const wallet = createClient({ uri, storage: false, clientMeta: null }).extend(walletActions)
  wallet.on('session_request', () =>
    wallet.approveSession({ chainId: CHAIN_ID, accounts: [ANVIL_ACCOUNT.address] }),
  )
  return wallet
}

// No blocks at first (no interval, and nobody sends a transaction): the quiet rounds see none; evm_setIntervalMining
// starts one a second for the busy rounds.
const anvil = await startAnvil({ blockTime: 0 })
const watchdog = setTimeout(() => {
  console.error(`bench/provider: not done within ${LIMIT_MS} ms`)
  anvil.kill()
  process.exit(1)
}, LIMIT_MS)
watchdog.unref()

const blockNumber = async () => Number(await rpc(anvil.url, 'eth_blockNumber'))
const bridgeServer = createBridgeServer({ logger: pino({ level: 'silent' }) })
const { url: bridge } = await bridgeServer.listen(0, '127.0.0.1')
const proxies = { ours: await startCountingProxy(anvil.url), v1: await startCountingProxy(anvil.url) }
/** @type {Client[]} */
const wallets = []

// Ours: the provider creates its client; the "modal" hands the URI to the wallet as a scan would.
const ours = createProvider({
  bridge,
  modal: { open: (uri) => void wallets.push(startWallet(uri)), close() {} },
  clientParameters: { storage: false },
  rpc: { [CHAIN_ID]: proxies.ours.url },
  chainId: CHAIN_ID,
  pollingInterval: POLLING_INTERVAL,
})
await ours.enable()

// v1: a pre-built connector (reference §7.1 `connector` option) paired with the same kind of wallet.
const connector = new WalletConnect({
  bridge,
  clientMeta: { name: 'bench', description: '', url: 'http://x', icons: [] },
})
connector.on('display_uri', (_error, payload) => wallets.push(startWallet(payload.params[0])))
const connected = new Promise((resolve) => connector.on('connect', resolve))
await connector.createSession({ chainId: CHAIN_ID })
await connected
const v1 = new WalletConnectProvider({
  connector,
  rpc: { [CHAIN_ID]: proxies.v1.url },
  chainId: CHAIN_ID,
  pollingInterval: POLLING_INTERVAL,
  qrcode: false,
})
v1.on('error', (/** @type {unknown} */ error) => process.env.BENCH_DEBUG && console.error('v1 error', error))
await v1.enable()

/** @typedef {keyof typeof proxies} Name */

/**
 * Requests per minute `name` sends over QUIET_MS of a chain without new blocks: the price of merely being connected.
 * @param {Name} name
 */
async function quietRound(name) {
  const proxy = proxies[name]
  proxy.counts.clear()
  proxy.start()
  const start = performance.now()
  await sleep(QUIET_MS)
  proxy.stop()
  return (proxy.total() * 60_000) / (performance.now() - start)
}

/** Each provider's requests by method over all busy rounds, and its requests per minute in each. */
const busy = {
  /** @type {Record<Name, Record<string, number>>} */
  methods: { ours: {}, v1: {} },
  /** @type {Record<Name, number[]>} */
  perMinute: { ours: [], v1: [] },
}

/**
 * Requests per new block `name` sends over the next BUSY_BLOCKS blocks: the price of following the chain. Rounds
 * follow one another, so each starts at the block on which the one before stopped.
 * @param {Name} name
 */
async function busyRound(name) {
  const proxy = proxies[name]
  proxy.counts.clear()
  const first = await blockNumber()
  proxy.start()
  const start = performance.now()
  await waitFor(async () => (await blockNumber()) >= first + BUSY_BLOCKS, {
    timeout: (BUSY_BLOCKS + 5) * 1000,
    interval: 20,
    message: `${BUSY_BLOCKS} new blocks`,
  })
  proxy.stop()
  busy.perMinute[name].push((proxy.total() * 60_000) / (performance.now() - start))
  for (const [method, count] of proxy.counts)
    busy.methods[name][method] = (busy.methods[name][method] ?? 0) + count
  return proxy.total() / BUSY_BLOCKS
}

// Both providers' first polls are behind them before anything is counted.
await sleep(2 * POLLING_INTERVAL)
const quietFirst = await blockNumber()
const quiet = await interleave(
  { ours: () => quietRound('ours'), v1: () => quietRound('v1') },
  { rounds: ROUNDS },
)
const quietBlocks = (await blockNumber()) - quietFirst

await rpc(anvil.url, 'evm_setIntervalMining', [1])
// Start on a block boundary, two blocks in, so the first busy round is as long as the others.
const busyFirst = await blockNumber()
await waitFor(async () => (await blockNumber()) >= busyFirst + 2, { timeout: 10_000, interval: 20 })
const perBlock = await interleave(
  { ours: () => busyRound('ours'), v1: () => busyRound('v1') },
  { rounds: ROUNDS },
)

const round = (/** @type {number} */ value, digits = 0) => Number(value.toFixed(digits))
console.log(
  JSON.stringify({
    bench: 'provider',
    rounds: ROUNDS,
    polling_interval_ms: POLLING_INTERVAL,
    quiet_ms_per_round: QUIET_MS,
    busy_blocks_per_round: BUSY_BLOCKS,
    quiet_blocks: quietBlocks,
    pairlink_idle_requests_per_minute: round(quiet.medians.ours, 1),
    v1_idle_requests_per_minute: round(quiet.medians.v1, 1),
    pairlink_requests_per_minute_1s_blocks: round(median(busy.perMinute.ours), 1),
    v1_requests_per_minute_1s_blocks: round(median(busy.perMinute.v1), 1),
    pairlink_requests_per_block: round(perBlock.medians.ours, 2),
    v1_requests_per_block: round(perBlock.medians.v1, 2),
    ratio: round(perBlock.medians.ours / perBlock.medians.v1, 3),
    idle_ratio: round(quiet.medians.ours / quiet.medians.v1, 3),
    pairlink_methods: busy.methods.ours,
    v1_methods: busy.methods.v1,
  }),
)

// v1's disconnect kills the session; ours too. Then close everything we started, by handle.
await ours.disconnect()
await v1.disconnect().catch(() => {})
for (const wallet of wallets) wallet.close()
connector.transportClose()
await proxies.ours.close()
await proxies.v1.close()
await bridgeServer.close()
await anvil.stop()
process.exit(0)
