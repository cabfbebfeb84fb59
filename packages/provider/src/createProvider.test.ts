import { ModalClosedError, RpcError, SessionRejectedError } from '@pairlink/protocol'
import { waitFor } from '@pairlink/test-kit'
import { afterEach, expect, test } from 'vitest'
import { createFakeClient } from '../test/fakeClient.js'
import { createFakeChain, createFakeNode } from '../test/fakeNode.js'
import { witnessPolls } from '../test/witness.js'
import { type CreateProviderParameters, createProvider, type Provider } from './createProvider.js'
import { InvalidProviderParametersError, UserRejectedRequestError } from './errors.js'

const ALICE = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8'
const BOB = '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC'

const cleanups: (() => unknown)[] = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
})

function setup(
  parameters: Partial<CreateProviderParameters> = {},
  initial?: Parameters<typeof createFakeClient>[0],
) {
  const { client, fake } = createFakeClient(initial)
  const provider = createProvider({ client, chainId: 1, pollingInterval: 20, ...parameters })
  cleanups.push(() => provider.disconnect())
  const events: [string, unknown][] = []
  for (const name of ['connect', 'disconnect', 'chainChanged', 'accountsChanged', 'message'] as const) {
    provider.on(name, (payload: unknown) => events.push([name, payload]))
  }
  return { provider, fake, events }
}

async function connected(parameters: Partial<CreateProviderParameters> = {}) {
  const s = setup(parameters)
  const enabled = s.provider.enable()
  await until(() => s.fake.connects.length === 1)
  s.fake.approve({ chainId: 1, accounts: [ALICE] })
  await enabled
  s.events.length = 0
  return s
}

async function node() {
  const chain = createFakeChain(1)
  const fake = await createFakeNode((call) => chain.answer(call))
  cleanups.push(() => fake.close())
  return { chain, node: fake }
}

const until = (predicate: () => boolean) => waitFor(predicate)
const error = (provider: Provider, method: string, params?: unknown[]) =>
  provider.request({ method, params }).catch((e) => e)

test('default: chain and accounts answered locally', async () => {
  const { provider, fake } = setup({ chainId: 137 })
  expect(await provider.request({ method: 'eth_chainId' })).toBe('0x89')
  expect(await provider.request({ method: 'net_version' })).toBe('137')
  expect(await provider.request({ method: 'eth_accounts' })).toEqual([])
  expect(await provider.request({ method: 'eth_coinbase' })).toBe(null)
  expect(provider.isWalletConnect).toBe(true)
  expect(fake.requests).toEqual([])
})

test('error: neither client nor bridge', () => {
  expect(() => createProvider({})).toThrow(InvalidProviderParametersError)
  expect(() => createProvider({})).toThrow('Missing one of the required parameters: client / bridge')
})

test('behavior: enable connects, then emits connect, chainChanged and accountsChanged', async () => {
  const { provider, fake, events } = setup({ chainId: 1 })
  const enabled = provider.enable()
  const again = provider.request({ method: 'eth_requestAccounts' })
  await until(() => fake.connects.length === 1)
  expect(fake.connects).toEqual([{ chainId: 1 }])
  fake.approve({ chainId: 5, accounts: [ALICE] })
  expect(await enabled).toEqual([ALICE])
  expect(await again).toEqual([ALICE])
  // Both callers settled: a second connect, had there been one, was made by now.
  expect(fake.connects).toHaveLength(1)
  expect(events).toEqual([
    ['connect', { chainId: '0x5' }],
    ['chainChanged', '0x5'],
    ['accountsChanged', [ALICE]],
  ])
  expect(provider.connected).toBe(true)
  expect(await provider.request({ method: 'eth_chainId' })).toBe('0x5')
  expect(await provider.request({ method: 'eth_accounts' })).toEqual([ALICE])
  expect(await provider.enable()).toEqual([ALICE])
  expect(fake.connects).toHaveLength(1)
})

test('behavior: a restored session is connected without enable', async () => {
  const { provider, events } = setup({ chainId: 1 }, { connected: true, chainId: 1, accounts: [BOB] })
  expect(events).toEqual([])
  await until(() => events.length > 0)
  expect(events).toEqual([
    ['connect', { chainId: '0x1' }],
    ['accountsChanged', [BOB]],
  ])
  expect(await provider.request({ method: 'eth_accounts' })).toEqual([BOB])
})

test('error: the person closes the modal → 4001 User closed modal', async () => {
  const { provider, fake } = setup()
  const enabled = provider.enable().catch((e) => e)
  await until(() => fake.connects.length === 1)
  const closed = new ModalClosedError('User close QRCode Modal')
  fake.failConnect(closed)
  const error = await enabled
  expect(error).toMatchObject({ code: 4001, message: 'User closed modal' })
  // The client's error stays reachable, so an app can tell the modal closing from a wallet's refusal by code.
  expect(error.walk((e: unknown) => (e as { code?: unknown }).code === ModalClosedError.code)).toBe(closed)
})

test('error: the wallet rejects the session → 4001 with its message', async () => {
  const { provider, fake } = setup()
  let enabled = provider.enable().catch((e) => e)
  await until(() => fake.connects.length === 1)
  const rejected = new SessionRejectedError('Not today')
  fake.failConnect(rejected)
  expect(await enabled).toMatchObject({ code: 4001, message: 'Not today', cause: rejected })
  // v1's connect() stays pending on a rejection; only `disconnect` tells.
  enabled = provider.enable().catch((e) => e)
  await until(() => fake.connects.length === 2)
  fake.emit('disconnect', { message: 'Session Rejected' })
  expect(await enabled).toMatchObject({ code: 4001, message: 'Session Rejected' })
})

test('behavior: signing methods go to the wallet as they are', async () => {
  const { provider, fake } = await connected()
  const typed = JSON.stringify({ types: {}, primaryType: 'Mail', domain: {}, message: {} })
  await provider.request({ method: 'personal_sign', params: ['0x68656c6c6f', ALICE] })
  await provider.request({ method: 'eth_signTypedData_v4', params: [ALICE, typed] })
  await provider.request({ method: 'eth_sign', params: [ALICE, '0x1234'] })
  await provider.request({ method: 'wallet_watchAsset', params: { type: 'ERC20' } })
  expect(fake.requests).toEqual([
    { method: 'personal_sign', params: ['0x68656c6c6f', ALICE] },
    { method: 'eth_signTypedData_v4', params: [ALICE, typed] },
    { method: 'eth_sign', params: [ALICE, '0x1234'] },
    { method: 'wallet_watchAsset', params: { type: 'ERC20' } },
  ])
})

test('behavior: personal_sign in [address, message] order is put right (v1 heuristic)', async () => {
  const { provider, fake } = await connected()
  await provider.request({ method: 'personal_sign', params: [ALICE, '0x68656c6c6f'] })
  expect(fake.requests[0]?.params).toEqual(['0x68656c6c6f', ALICE])
})

test('behavior: eth_sendTransaction without from is sent from the first account', async () => {
  const { provider, fake } = await connected()
  await provider.request({ method: 'eth_sendTransaction', params: [{ to: BOB, value: '0x1' }] })
  expect(fake.requests[0]?.params).toEqual([{ to: BOB, value: '0x1', from: ALICE }])
})

test('error: wallet methods while disconnected → 4900', async () => {
  const { provider, fake } = setup()
  expect(await error(provider, 'personal_sign', ['0x00', ALICE])).toMatchObject({
    code: 4900,
    message: 'Session currently disconnected',
  })
  expect(await error(provider, 'wallet_addEthereumChain', [{}])).toMatchObject({ code: 4900 })
  expect(fake.requests).toEqual([])
})

test('error: a from that is not a session account → 4100 (v1 text)', async () => {
  const { provider, fake } = await connected()
  expect(await error(provider, 'eth_sendTransaction', [{ from: BOB, to: ALICE }])).toMatchObject({
    code: 4100,
    message: `Unknown address - unable to sign transaction for this address: "${BOB}"`,
  })
  expect(await error(provider, 'personal_sign', ['0x00', BOB])).toMatchObject({
    code: 4100,
    message: `Unknown address - unable to sign message for this address: "${BOB}"`,
  })
  expect(await error(provider, 'eth_signTypedData_v4', [BOB, '{}'])).toMatchObject({ code: 4100 })
  expect(fake.requests).toEqual([])
  // Addresses compare case-insensitively.
  await provider.request({ method: 'eth_sendTransaction', params: [{ from: ALICE.toLowerCase(), to: BOB }] })
  expect(fake.requests).toHaveLength(1)
})

test('error: a transaction for another chain → 4901', async () => {
  const { provider, fake } = await connected()
  expect(await error(provider, 'eth_sendTransaction', [{ from: ALICE, chainId: '0x89' }])).toMatchObject({
    code: 4901,
    message: 'The wallet is on chain 1, not 137',
  })
  await provider.request({ method: 'eth_sendTransaction', params: [{ from: ALICE, chainId: '0x1' }] })
  expect(fake.requests).toHaveLength(1)
})

test("error: a -32000 failure the wallet reports in the node's words stays a failure, not a rejection", async () => {
  const { provider, fake } = await connected()
  const failures = [
    'insufficient funds for gas * price + value: the balance does not cover 20 ETH plus gas',
    'nonce too low',
  ]
  for (const message of failures) {
    fake.answer = async () => {
      throw new RpcError(message, { code: -32000 })
    }
    expect(await error(provider, 'eth_sendTransaction', [{ from: ALICE }])).toMatchObject({
      code: -32000,
      message,
    })
  }
  // v1's default error text is a rejection, as is any -32000 worded like one.
  for (const message of ['Failed or Rejected Request', 'User declined', 'Cancelled by user']) {
    fake.answer = async () => {
      throw new RpcError(message, { code: -32000 })
    }
    expect(await error(provider, 'eth_sendTransaction', [{ from: ALICE }])).toMatchObject({ code: 4001 })
  }
})

test('error: wallet rejections carry 4001 unless the wallet sent a standard code', async () => {
  const { provider, fake } = await connected()
  const answers: [number, number][] = [
    [-32000, 4001], // v1 wallets send -32000 for everything
    [4001, 4001],
    [5000, 4001],
    [4100, 4100],
    [4200, 4200],
    [4901, 4901],
    [4902, 4902],
    [-32602, -32602],
    [-32003, -32003],
  ]
  for (const [sent, expected] of answers) {
    fake.answer = async () => {
      throw new RpcError('User rejected the request', { code: sent, data: 'x' })
    }
    expect(await error(provider, 'personal_sign', ['0x00', ALICE])).toMatchObject({
      code: expected,
      message:
        expected === 4001
          ? 'User denied the request: User rejected the request'
          : 'User rejected the request',
      data: 'x',
    })
  }
})

// ethers v5's whole test for a rejection (JsonRpcSigner's signMessage, _signTypedData, sendUncheckedTransaction):
// `typeof error.message === 'string' && error.message.match(/user denied/i)`; it never reads the code.
const ETHERS_V5_REJECTION = /user denied/i

test('error: every 4001 a wallet causes reads as a rejection to ethers v5 (its message test) as well as to v6 (the code)', async () => {
  const { provider, fake } = await connected()
  const said: [string, string][] = [
    ['User rejected the request.', 'User denied the request: User rejected the request.'],
    ['Not today', 'User denied the request: Not today'],
    [
      'MetaMask Tx Signature: User denied transaction signature.',
      'MetaMask Tx Signature: User denied transaction signature.',
    ],
    ['', 'User denied the request.'],
  ]
  for (const code of [4001, -32000]) {
    // A -32000 is a rejection only when it reads as one (v1 put -32000 on failures too).
    for (const [message, expected] of said.filter(([text]) => code === 4001 || /reject|denied/i.test(text))) {
      fake.answer = async () => {
        throw new RpcError(message, { code })
      }
      const rejection = (await error(provider, 'personal_sign', ['0x00', ALICE])) as Error
      expect(rejection).toBeInstanceOf(UserRejectedRequestError)
      expect(rejection).toMatchObject({ code: 4001, message: expected })
      expect(ETHERS_V5_REJECTION.test(rejection.message)).toBe(true)
    }
  }
})

test('behavior: session updates emit chainChanged (hex) and accountsChanged', async () => {
  const { provider, fake, events } = await connected()
  fake.update({ chainId: 10, accounts: [ALICE] })
  fake.update({ chainId: 10, accounts: [BOB, ALICE] })
  expect(events).toEqual([
    ['chainChanged', '0xa'],
    ['accountsChanged', [BOB, ALICE]],
  ])
  expect(provider.chainId).toBe(10)
})

test('behavior: reads go to the node of the current chain', async () => {
  const one = await node()
  const ten = await node()
  const { provider, fake } = await connected({ rpc: { 1: one.node.url, 10: ten.node.url } })
  await provider.request({ method: 'eth_getBalance', params: [ALICE, 'latest'] }).catch(() => {})
  expect(one.node.calls.some((c) => c.method === 'eth_getBalance')).toBe(true)
  fake.update({ chainId: 10, accounts: [ALICE] })
  expect(await provider.request({ method: 'eth_blockNumber' })).toBe('0x1')
  expect(ten.node.calls.some((c) => c.method === 'eth_blockNumber')).toBe(true)
  expect(fake.requests).toEqual([])
})

test('args: the wallet rpcUrl comes first, then rpc[chainId], then rpcUrl', async () => {
  const [a, b, c] = [await node(), await node(), await node()]
  const { provider, fake } = await connected({ rpc: { 1: b.node.url }, rpcUrl: c.node.url })
  await provider.request({ method: 'eth_blockNumber' })
  fake.state.rpcUrl = a.node.url
  await provider.request({ method: 'eth_blockNumber' })
  fake.update({ chainId: 7, accounts: [ALICE] })
  fake.state.rpcUrl = undefined
  await provider.request({ method: 'eth_blockNumber' })
  const count = (n: typeof a) => n.node.calls.filter((call) => call.method === 'eth_blockNumber').length
  expect([count(a), count(b), count(c)]).toEqual([1, 1, 1])
})

test('args: timeout ends a request to a node that never answers', async () => {
  const hanging = await createFakeNode(() => 'hang')
  cleanups.push(() => hanging.close())
  const { provider } = setup({ rpc: { 1: hanging.url }, timeout: 100 })
  expect(await error(provider, 'eth_call', [{ to: ALICE }, 'latest'])).toMatchObject({
    code: -32603,
    message: 'HTTP request timed out after 100 ms (method: eth_call)',
  })
})

test('args: walletTimeout is the time-out of every wallet request, none by default', async () => {
  const timed = await connected({ walletTimeout: 1_234 })
  await timed.provider.request({ method: 'personal_sign', params: ['0x00', ALICE] })
  await timed.provider.request({ method: 'eth_sign', params: [ALICE, '0x1234'] })
  // Each also carries the provider's `onStatus` (the `requestStatus` event).
  const timeouts = (options: ({ timeout?: number | undefined } | undefined)[]) =>
    options.map((option) => ({ timeout: option?.timeout }))
  expect(timeouts(timed.fake.requestOptions)).toEqual([{ timeout: 1_234 }, { timeout: 1_234 }])
  const untimed = await connected()
  await untimed.provider.request({ method: 'personal_sign', params: ['0x00', ALICE] })
  expect(timeouts(untimed.fake.requestOptions)).toEqual([{ timeout: undefined }])
})

test('error: no RPC URL for the chain → 4901', async () => {
  const { provider } = setup({ chainId: 5 })
  expect(await error(provider, 'eth_blockNumber')).toMatchObject({
    code: 4901,
    message: 'No RPC Url available for chainId: 5',
  })
})

test('behavior: wallet_switchEthereumChain', async () => {
  const { node: url } = await node()
  const { provider, fake, events } = await connected({ rpc: { 1: url.url, 10: url.url } })
  expect(await provider.request({ method: 'wallet_switchEthereumChain', params: [{ chainId: '0x1' }] })).toBe(
    null,
  )
  expect(fake.requests).toEqual([])
  expect(await error(provider, 'wallet_switchEthereumChain', [{ chainId: '0x89' }])).toMatchObject({
    code: 4901,
    message: 'No RPC Url available for chainId: 137',
  })
  fake.answer = async () => null
  await provider.request({ method: 'wallet_switchEthereumChain', params: [{ chainId: '0xa' }] })
  expect(fake.requests).toEqual([{ method: 'wallet_switchEthereumChain', params: [{ chainId: '0xa' }] }])
  fake.update({ chainId: 10, accounts: [ALICE] })
  expect(events).toEqual([['chainChanged', '0xa']])
  expect(await provider.request({ method: 'eth_chainId' })).toBe('0xa')
})

test('behavior: eth_subscribe newHeads delivers message events; eth_unsubscribe ends them', async () => {
  const { chain, node: fakeNode } = await node()
  const { provider, events } = setup({ rpc: { 1: fakeNode.url } })
  const id = await provider.request({ method: 'eth_subscribe', params: ['newHeads'] })
  expect(id).toMatch(/^0x[0-9a-f]+$/)
  await until(() => events.length === 1)
  chain.head = 2
  await until(() => events.length === 2)
  expect(
    events.map(([name, payload]) => [name, (payload as { data: { result: { number: string } } }).data]),
  ).toMatchInlineSnapshot(`
    [
      [
        "message",
        {
          "result": {
            "hash": "0x0000000000000000000000000000000000000000000000000000000000000002",
            "number": "0x1",
            "parentHash": "0x0000000000000000000000000000000000000000000000000000000000000001",
            "timestamp": "0x6553f101",
            "transactions": [],
          },
          "subscription": "0x1",
        },
      ],
      [
        "message",
        {
          "result": {
            "hash": "0x0000000000000000000000000000000000000000000000000000000000000003",
            "number": "0x2",
            "parentHash": "0x0000000000000000000000000000000000000000000000000000000000000002",
            "timestamp": "0x6553f102",
            "transactions": [],
          },
          "subscription": "0x1",
        },
      ],
    ]
  `)
  expect(events[0]?.[1]).toMatchObject({ type: 'eth_subscription' })
  expect(await provider.request({ method: 'eth_unsubscribe', params: [id] })).toBe(true)
  // A poll already in flight may still land; after it, none.
  const calls = fakeNode.calls.length
  await witnessPolls(20)
  const settled = fakeNode.calls.length
  expect(settled).toBeLessThanOrEqual(calls + 1)
  await witnessPolls(20)
  expect(fakeNode.calls.length).toBe(settled)
})

test('error: other subscription types → 4200 naming the method', async () => {
  const { provider } = setup()
  expect(await error(provider, 'eth_subscribe', ['newPendingTransactions'])).toMatchObject({
    code: 4200,
    message: 'Unsupported subscription type: newPendingTransactions (eth_subscribe)',
  })
})

test('behavior: polling runs while connected or listened to, and stops on disconnect', async () => {
  const { chain, node: fakeNode } = await node()
  const { provider, fake } = setup({ rpc: { 1: fakeNode.url } })
  const polls = () => fakeNode.calls.filter((c) => c.method === 'eth_getBlockByNumber').length
  // Polls during a stretch in which a witness polling as often polled 3 times (after one that lets a poll in
  // flight land).
  const idle = async () => {
    await witnessPolls(20, 1)
    const count = polls()
    await witnessPolls(20)
    return polls() - count
  }
  expect(await idle()).toBe(0)
  const blocks: unknown[] = []
  const listener = (block: unknown) => blocks.push(block)
  provider.on('block', listener)
  await until(() => blocks.length === 1)
  provider.removeListener('block', listener)
  expect(await idle()).toBe(0)

  const enabled = provider.enable()
  await until(() => fake.connects.length === 1)
  fake.approve({ chainId: 1, accounts: [ALICE] })
  await enabled
  const count = polls()
  await until(() => polls() >= count + 3)
  chain.head = 2
  await provider.disconnect()
  expect(await idle()).toBe(0)
})

test('behavior: disconnect() kills the session and emits disconnect 4900 once', async () => {
  const { provider, fake, events } = await connected()
  await provider.disconnect()
  await provider.disconnect()
  expect(fake.kills).toBe(1)
  expect(events).toEqual([
    ['accountsChanged', []],
    ['disconnect', expect.objectContaining({ code: 4900, message: 'Connection disconnected' })],
  ])
  expect(provider.connected).toBe(false)
  expect(await provider.request({ method: 'eth_accounts' })).toEqual([])
})

test('behavior: the wallet ending the session emits disconnect 4900', async () => {
  const { provider, fake, events } = await connected()
  fake.kill('Session disconnected')
  expect(events.at(-1)).toEqual(['disconnect', expect.objectContaining({ code: 4900 })])
  expect((events.at(-1)?.[1] as RpcError | undefined)?.data).toEqual({ reason: 'Session disconnected' })
  expect(await error(provider, 'personal_sign', ['0x00', ALICE])).toMatchObject({ code: 4900 })
})

test('behavior: wc_killSession disconnects (v1)', async () => {
  const { provider, fake } = await connected()
  expect(await provider.request({ method: 'wc_killSession' })).toBe(null)
  expect(fake.kills).toBe(1)
})

test('error: a request without a method (v1 text)', async () => {
  const { provider } = setup()
  await expect(provider.request({} as never)).rejects.toMatchObject({
    code: -32600,
    message: 'JSON RPC request must have valid "method" value',
  })
})

test('behavior: send and sendAsync for older dapps', async () => {
  const { provider } = setup({ chainId: 5 })
  expect(await provider.send('eth_chainId')).toBe('0x5')
  expect(await provider.send({ id: 1, jsonrpc: '2.0', method: 'net_version' })).toBe('5')
  const single = await new Promise((resolve) =>
    provider.sendAsync({ id: 7, jsonrpc: '2.0', method: 'eth_chainId' }, (e, r) => resolve([e, r])),
  )
  expect(single).toEqual([null, { id: 7, jsonrpc: '2.0', result: '0x5' }])
  const failed = await new Promise<unknown[]>((resolve) =>
    provider.send({ id: 8, method: 'eth_blockNumber' }, (e, r) => resolve([e, r])),
  )
  expect(failed[0]).toMatchObject({ code: 4901 })
  expect(failed[1]).toEqual({
    id: 8,
    jsonrpc: '2.0',
    error: { code: 4901, message: 'No RPC Url available for chainId: 5' },
  })
  const batch = await new Promise((resolve) =>
    provider.sendAsync(
      [
        { id: 1, method: 'eth_chainId' },
        { id: 2, method: 'eth_accounts' },
      ],
      (e, r) => resolve([e, r]),
    ),
  )
  expect(batch).toEqual([
    null,
    [
      { id: 1, jsonrpc: '2.0', result: '0x5' },
      { id: 2, jsonrpc: '2.0', result: [] },
    ],
  ])
})

test('behavior: on and removeListener return the provider', () => {
  const { provider } = setup()
  const listener = () => {}
  expect(provider.on('chainChanged', listener)).toBe(provider)
  expect(provider.removeListener('chainChanged', listener)).toBe(provider)
})
