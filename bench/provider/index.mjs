#!/usr/bin/env node
// RPC requests a connected, idle dapp costs its node: @pairlink/provider beside v1's @walletconnect/web3-provider@1.8.0
// in the same run, against the same anvil chain (one block a second), each behind its own counting JSON-RPC proxy.
// Both are connected to a wallet (our client, wallet role) through the real bridge, both poll every 1000 ms, and
// nobody calls them: what reaches the node is polling alone. Prints one JSON line. Needs `npm run build` first.
import { spawn } from 'node:child_process'
import { createServer } from 'node:http'
import { createRequire } from 'node:module'
import { createServer as createNetServer } from 'node:net'
import { fileURLToPath } from 'node:url'
import { createBridgeServer } from '@pairlink/bridge'
import { createClient, walletActions } from '@pairlink/client'
import { createProvider } from '@pairlink/provider'
import pino from 'pino'

const require = createRequire(import.meta.url)
const WalletConnect = require('@walletconnect/client').default
const WalletConnectProvider = require('@walletconnect/web3-provider').default

// Split into two phases of SECONDS / 2 each.
const SECONDS = Number(process.env.BENCH_SECONDS ?? 40)
const POLLING_INTERVAL = 1000
const CHAIN_ID = 31337
const ACCOUNT = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266'
const anvilBin = fileURLToPath(new URL('../../node_modules/.bin/anvil', import.meta.url))
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms))

async function freePort() {
  const server = createNetServer()
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address()
  await new Promise((resolve) => server.close(resolve))
  return port
}

async function rpc(url, method, params = []) {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  })
  return (await response.json()).result
}

async function startAnvil() {
  const port = await freePort()
  // No mining at first: the quiet phase has no new blocks; evm_setIntervalMining starts one a second later.
  const args = ['--port', String(port), '--host', '127.0.0.1', '--quiet', '--no-mining']
  const child = spawn(anvilBin, args, { stdio: 'ignore' })
  const url = `http://127.0.0.1:${port}`
  for (let attempt = 0; attempt < 200; attempt++) {
    if ((await rpc(url, 'eth_chainId').catch(() => undefined)) !== undefined) return { url, child }
    await sleep(100)
  }
  child.kill()
  throw new Error('anvil did not start')
}

/**
 * A JSON-RPC proxy on 127.0.0.1 that counts each request (a batch counts each call) by method. It forwards only
 * `jsonrpc`, `id`, `method`, `params`: v1 leaks `skipCache: true` into its bodies (reference §7.2), which anvil
 * refuses with -32600 (geth and hosted nodes ignore it); without this v1 would poll an error loop, not blocks.
 */
async function startCountingProxy(target) {
  const counts = new Map()
  let counting = false
  const server = createServer((req, res) => {
    const chunks = []
    req.on('data', (chunk) => chunks.push(chunk))
    req.on('end', async () => {
      const parsed = JSON.parse(Buffer.concat(chunks).toString('utf8'))
      const calls = (Array.isArray(parsed) ? parsed : [parsed]).map(({ jsonrpc, id, method, params }) => ({
        jsonrpc,
        id,
        method,
        params,
      }))
      if (counting) for (const { method } of calls) counts.set(method, (counts.get(method) ?? 0) + 1)
      const body = JSON.stringify(Array.isArray(parsed) ? calls : calls[0])
      const upstream = await fetch(target, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body,
      })
      res.writeHead(upstream.status, { 'Content-Type': 'application/json' }).end(await upstream.text())
    })
  })
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve))
  return {
    url: `http://127.0.0.1:${server.address().port}`,
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
      return new Promise((resolve) => server.close(resolve))
    },
  }
}

/** Our client in the wallet role: approves the session a dapp's URI asks for. */
function startWallet(uri) {
  const wallet = createClient({ uri, storage: false, clientMeta: null }).extend(walletActions)
  wallet.on('session_request', () => wallet.approveSession({ chainId: CHAIN_ID, accounts: [ACCOUNT] }))
  return wallet
}

const anvil = await startAnvil()
const bridgeServer = createBridgeServer({ logger: pino({ level: 'silent' }) })
const { url: bridge } = await bridgeServer.listen(0, '127.0.0.1')
const oursProxy = await startCountingProxy(anvil.url)
const v1Proxy = await startCountingProxy(anvil.url)
const wallets = []

// Ours: the provider creates its client; the "modal" hands the URI to the wallet as a scan would.
const ours = createProvider({
  bridge,
  modal: { open: (uri) => wallets.push(startWallet(uri)), close() {} },
  clientParameters: { storage: false },
  rpc: { [CHAIN_ID]: oursProxy.url },
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
  rpc: { [CHAIN_ID]: v1Proxy.url },
  chainId: CHAIN_ID,
  pollingInterval: POLLING_INTERVAL,
  qrcode: false,
})
v1.on('error', (e) => process.env.BENCH_DEBUG && console.error('v1 error', e))
await v1.enable()

/** Counts both providers' requests over the same seconds of the same chain. */
async function measure(seconds) {
  oursProxy.counts.clear()
  v1Proxy.counts.clear()
  const first = Number(await rpc(anvil.url, 'eth_blockNumber'))
  oursProxy.start()
  v1Proxy.start()
  await sleep(seconds * 1000)
  oursProxy.stop()
  v1Proxy.stop()
  const blocks = Number(await rpc(anvil.url, 'eth_blockNumber')) - first
  return {
    blocks,
    ours: oursProxy.total(),
    v1: v1Proxy.total(),
    oursMethods: Object.fromEntries(oursProxy.counts),
    v1Methods: Object.fromEntries(v1Proxy.counts),
  }
}

// Phase 1, a quiet chain (no new blocks): the price of merely being connected.
await sleep(2000)
const quiet = await measure(SECONDS / 2)
// Phase 2, one block a second: the price of following the chain.
await rpc(anvil.url, 'evm_setIntervalMining', [1])
await sleep(2000)
const busy = await measure(SECONDS / 2)

const perMinute = (n, seconds) => Math.round((n * 60) / seconds)
const perBlock = (n) => Number((n / busy.blocks).toFixed(2))
console.log(
  JSON.stringify({
    bench: 'provider',
    polling_interval_ms: POLLING_INTERVAL,
    seconds_per_phase: SECONDS / 2,
    quiet_blocks: quiet.blocks,
    busy_blocks: busy.blocks,
    pairlink_idle_requests_per_minute: perMinute(quiet.ours, SECONDS / 2),
    v1_idle_requests_per_minute: perMinute(quiet.v1, SECONDS / 2),
    pairlink_requests_per_minute_1s_blocks: perMinute(busy.ours, SECONDS / 2),
    v1_requests_per_minute_1s_blocks: perMinute(busy.v1, SECONDS / 2),
    pairlink_requests_per_block: perBlock(busy.ours),
    v1_requests_per_block: perBlock(busy.v1),
    ratio: Number((busy.ours / busy.v1).toFixed(3)),
    idle_ratio: Number((quiet.ours / quiet.v1).toFixed(3)),
    pairlink_methods: busy.oursMethods,
    v1_methods: busy.v1Methods,
  }),
)

// v1's disconnect kills the session; ours too. Then close everything we started, by handle.
await ours.disconnect()
await v1.disconnect().catch(() => {})
for (const wallet of wallets) wallet.close()
connector.transportClose?.()
await oursProxy.close()
await v1Proxy.close()
await bridgeServer.close()
anvil.child.kill('SIGTERM')
process.exit(0)
