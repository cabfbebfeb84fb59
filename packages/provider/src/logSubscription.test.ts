import { waitFor } from '@pairlink/test-kit'
import { ANVIL_ACCOUNT, type Anvil, rpc, startAnvil } from '@pairlink/test-kit/anvil'
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest'
import { startBridge } from '../test/bridge.js'
import { witnessPolls } from '../test/witness.js'
import { type CreateProviderParameters, createProvider, type Provider } from './createProvider.js'
import type { Log } from './logSubscription.js'

// eth_subscribe('logs') on a real anvil (a block a second, transactions mined at once): a 20-byte contract whose every
// call emits LOG2(topic0 = calldata[0:32], topic1 = calldata[32:64], data = the rest).
const EMITTER_RUNTIME = '366000600037602035600035604036036040a200'
const EMITTER_INIT = `0x6014600c60003960146000f3${EMITTER_RUNTIME}`
const word = (n: number) => `0x${n.toString(16).padStart(64, '0')}`
const [A, B, C] = [word(0xa), word(0xb), word(0xc)]
const [U1, U2, U3] = [word(1), word(2), word(3)]

let anvil: Anvil
let bridge: Awaited<ReturnType<typeof startBridge>>
let first: string
let second: string
beforeAll(async () => {
  ;[anvil, bridge] = await Promise.all([startAnvil({ accountFactory: false }), startBridge()])
  first = await deploy()
  second = await deploy()
})
afterAll(async () => {
  await Promise.all([anvil?.stop(), bridge?.stop()])
})
const cleanups: (() => unknown)[] = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
})

type Receipt = { contractAddress: string; blockNumber: string; transactionHash: string }
async function send(to: string | null, data: string): Promise<Receipt> {
  const hash = await rpc(anvil.url, 'eth_sendTransaction', [{ from: ANVIL_ACCOUNT.address, to, data }])
  // Mined at once, unless the interval block being made took it: then in the next one.
  return (await waitFor(() => rpc(anvil.url, 'eth_getTransactionReceipt', [hash]), {
    message: 'the receipt',
  })) as Receipt
}
const deploy = async () => (await send(null, EMITTER_INIT)).contractAddress
/** One log from `address` (its own block, mined at once); resolves with the transaction hash and block. */
const emit = (address: string, topic0: string, topic1: string) => send(address, `${topic0}${topic1.slice(2)}`)

/** The provider's fetch, able to hold the next block poll: the chain moves on meanwhile, as between two polls. */
function createGate() {
  const calls: { method: string; params: unknown[] }[] = []
  let held: Promise<void> | undefined
  let open = () => {}
  let waiting = 0
  const fetch: typeof globalThis.fetch = async (input, init) => {
    const call = JSON.parse(String(init?.body)) as (typeof calls)[number]
    if (held && call.method === 'eth_getBlockByNumber' && call.params[0] === 'latest') {
      waiting++
      await held
      waiting--
    }
    calls.push(call)
    return globalThis.fetch(input, init)
  }
  return {
    fetch,
    calls,
    getLogs: () => calls.filter((call) => call.method === 'eth_getLogs'),
    /** Holds the next poll; resolves once the tracker waits on it. */
    async hold() {
      held = new Promise((resolve) => {
        open = resolve
      })
      await waitFor(() => waiting === 1, { message: 'the tracker waits on the held poll' })
    },
    release() {
      held = undefined
      open()
    },
  }
}

const versions: [string, () => Partial<CreateProviderParameters>][] = [
  ['v1', () => ({ bridge: bridge.url })],
  ['v2', () => ({ relayUrl: bridge.url.replace(/^http/, 'ws') })],
]

function setup(version: () => Partial<CreateProviderParameters>) {
  const gate = createGate()
  const provider = createProvider({
    ...version(),
    rpc: { [anvil.chainId]: anvil.url },
    chainId: anvil.chainId,
    pollingInterval: 20,
    fetch: gate.fetch,
  })
  cleanups.push(() => provider.disconnect())
  const messages: { subscription: string; log: Log }[] = []
  provider.on('message', ({ data }) =>
    messages.push({ subscription: data.subscription, log: data.result as Log }),
  )
  return { provider, gate, messages }
}

async function subscribe(provider: Provider, gate: ReturnType<typeof createGate>, filter: unknown) {
  const before = gate.getLogs().length
  const id = (await provider.request({ method: 'eth_subscribe', params: ['logs', filter] })) as string
  // From the block after the head the provider knew, else from the first block it polls (which may hold an earlier
  // test's log): one eth_getLogs made (its poll's or a later one's).
  await waitFor(() => gate.getLogs().length > before, { message: 'a first eth_getLogs' })
  return id
}

const logsOf = (messages: { subscription: string; log: Log }[], id: string) =>
  messages.filter((m) => m.subscription === id).map(({ log }) => log)
const brief = (log: Log) => ({ tx: log.transactionHash, topics: log.topics, removed: log.removed })

describe.each(versions)('%s provider', (_, version) => {
  test('default: the logs of blocks made between two polls come once each, in order, from one eth_getLogs', async () => {
    const { provider, gate, messages } = setup(version)
    const id = await subscribe(provider, gate, { address: first })
    await gate.hold()
    messages.length = 0
    const made = [await emit(first, A, U1), await emit(first, B, U2)]
    await rpc(anvil.url, 'anvil_mine', ['0x2'])
    made.push(await emit(first, C, U3))
    const fetched = gate.getLogs().length
    gate.release()
    await waitFor(() => messages.length === 3, { message: 'three logs' })
    expect(messages.map(({ subscription, log }) => [subscription, brief(log)])).toEqual(
      made.map((receipt, i) => [
        id,
        { tx: receipt.transactionHash, topics: [[A, B, C][i], [U1, U2, U3][i]], removed: false },
      ]),
    )
    expect(messages.map(({ log }) => log.blockNumber)).toEqual(made.map((receipt) => receipt.blockNumber))
    // The poll after the gap asked for every new block at once.
    const range = gate.getLogs()[fetched]?.params[0] as { fromBlock: string; toBlock: string }
    expect(range).toMatchObject({ address: first })
    expect(Number(range.fromBlock)).toBeLessThanOrEqual(Number(made[0]?.blockNumber))
    expect(Number(range.toBlock)).toBeGreaterThanOrEqual(Number(made[2]?.blockNumber))
    // Later polls deliver nothing twice.
    const later = gate.getLogs().length
    await waitFor(() => gate.getLogs().length >= later + 2, { message: 'two more polls' })
    expect(messages).toHaveLength(3)

    expect(await provider.request({ method: 'eth_unsubscribe', params: [id] })).toBe(true)
    await emit(first, A, U1)
    // Nothing listens any more: polling stops (a poll in flight may still land).
    await witnessPolls(20)
    const settled = gate.calls.length
    await witnessPolls(20)
    expect(gate.calls.length).toBe(settled)
    expect(messages).toHaveLength(3)
  })
})

test('args: address (one or many) and topics (null, OR-lists) filters', async () => {
  const { provider, gate, messages } = setup(versions[0]![1])
  const both = await subscribe(provider, gate, { address: [first, second] })
  const firstA = await subscribe(provider, gate, { address: first, topics: [A] })
  const anyOneOrTwo = await subscribe(provider, gate, { topics: [null, [U1, U2]] })
  const aOrBThenThree = await subscribe(provider, gate, { topics: [[A, B], U3] })
  await gate.hold()
  messages.length = 0
  const made = [
    await emit(first, A, U1),
    await emit(second, A, U2),
    await emit(first, B, U3),
    await emit(second, C, U3),
    await emit(first, A, U3),
  ].map((receipt) => receipt.transactionHash)
  gate.release()
  await waitFor(() => messages.length === 5 + 2 + 2 + 2, { message: 'every matching log' })
  const txs = (id: string) => logsOf(messages, id).map((log) => log.transactionHash)
  expect(txs(both)).toEqual(made)
  expect(txs(firstA)).toEqual([made[0], made[4]])
  expect(txs(anyOneOrTwo)).toEqual([made[0], made[1]])
  expect(txs(aOrBThenThree)).toEqual([made[2], made[4]])
})

test('behavior: a reorg delivers the replaced logs again with removed: true, then the new chain’s', async () => {
  const { provider, gate, messages } = setup(versions[1]![1])
  const id = await subscribe(provider, gate, { address: first })
  messages.length = 0
  const snapshot = await rpc(anvil.url, 'evm_snapshot')
  const gone = await emit(first, A, U1)
  await waitFor(() => messages.length === 1, { message: 'the first log' })
  await gate.hold()
  await rpc(anvil.url, 'evm_revert', [snapshot])
  const kept = await emit(first, B, U2)
  // The new chain outgrows the old one, so the tracker takes its head.
  await rpc(anvil.url, 'anvil_mine', ['0x4'])
  gate.release()
  await waitFor(() => messages.length === 3, { message: 'the removed log and the new one' })
  expect(logsOf(messages, id).map(brief)).toEqual([
    { tx: gone.transactionHash, topics: [A, U1], removed: false },
    { tx: gone.transactionHash, topics: [A, U1], removed: true },
    { tx: kept.transactionHash, topics: [B, U2], removed: false },
  ])
  expect(messages[1]?.log.blockHash).toBe(messages[0]?.log.blockHash)
})

test('error: a filter that is not address and topics → -32602', async () => {
  const { provider } = setup(versions[0]![1])
  const error = (filter: unknown) =>
    provider.request({ method: 'eth_subscribe', params: ['logs', filter] }).catch((e) => e)
  expect(await error({ address: 'nope' })).toMatchObject({
    code: -32602,
    message: "Invalid params: eth_subscribe('logs') address must be an address or a list of addresses",
  })
  expect(await error({ topics: [1] })).toMatchObject({ code: -32602 })
  expect(await error('0x1')).toMatchObject({ code: -32602 })
  // Nothing was subscribed, so nothing polls.
  expect(await provider.request({ method: 'eth_unsubscribe', params: ['0x1'] })).toBe(false)
})
