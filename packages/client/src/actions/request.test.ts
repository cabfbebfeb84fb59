import { DEEPLINK_CHOICE_STORAGE_KEY, InvalidJsonRpcError, RpcError, SessionError } from '@pairlink/protocol'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { startBridge, type TestBridge } from '../../test/bridge.js'
import { createRecorder } from '../../test/recorder.js'
import { account, createDapp, decodeFrames, keyOf, next, pair } from '../../test/utils.js'
import { RequestTimeoutError } from '../errors.js'
import { createMemoryStorage } from '../storage.js'

let bridge: TestBridge
beforeAll(async () => {
  bridge = await startBridge()
})
afterAll(() => bridge.stop())

test('default', async () => {
  const { dapp, wallet } = await pair(bridge.url)
  wallet.on('call_request', (request) => void wallet.approveRequest({ id: request.id, result: request }))
  await expect(
    dapp.request({ method: 'eth_getBalance', params: [account, 'latest'], id: 42 }),
  ).resolves.toEqual({
    id: 42,
    jsonrpc: '2.0',
    method: 'eth_getBalance',
    params: [account, 'latest'],
  })
  // params default to [] as in v1.
  await expect(dapp.request({ method: 'net_version' })).resolves.toMatchObject({ params: [] })
  dapp.close()
  wallet.close()
})

describe('silent flag (reference §4.8), as seen at the bridge', async () => {
  test.each([
    ['eth_sendTransaction', false, undefined],
    ['personal_sign', false, undefined],
    ['eth_signTypedData_v4', false, undefined],
    ['wallet_switchEthereumChain', false, undefined],
    ['custom_method', true, undefined],
    ['eth_getBalance', true, undefined],
    ['custom_method', false, true],
    ['personal_sign', true, false],
    ['wc_custom', true, undefined],
    ['my_sign', false, undefined],
  ])('args: %s → silent %s (forcePushNotification %s)', async (method, silent, forcePushNotification) => {
    const recorder = createRecorder()
    const { dapp, wallet, uri } = await pair(bridge.url, {
      dapp: { signingMethods: ['my_sign'] },
      WebSocket: recorder.WebSocket,
    })
    wallet.on('call_request', ({ id }) => void wallet.approveRequest({ id, result: 1 }))
    const start = recorder.sent.length
    const params = method === 'eth_sendTransaction' ? [{ from: account }] : ['0x00', account]
    // Like v1, a wallet passes unknown `wc_` methods to nobody: that one is never answered.
    const timeout = method.startsWith('wc_') ? 100 : undefined
    await dapp.request({ method, params }, { forcePushNotification, timeout }).catch(() => {})
    const frames = await decodeFrames(recorder.sent.slice(start), keyOf(uri))
    const request = frames.find((frame) => frame.payload?.method === method)
    expect(request?.silent).toBe(silent)
    // Responses are always silent.
    if (!timeout)
      expect(frames.find((frame) => frame.payload && 'result' in frame.payload)?.silent).toBe(true)
    dapp.close()
    wallet.close()
  })
})

test('behavior: eth_accounts and eth_chainId are answered locally', async () => {
  const { dapp, wallet } = await pair(bridge.url)
  const asked: string[] = []
  wallet.on('call_request', ({ id, method }) => {
    asked.push(method)
    void wallet.approveRequest({ id, result: 'ok' })
  })
  await expect(dapp.request({ method: 'eth_accounts' })).resolves.toEqual([account])
  await expect(dapp.request({ method: 'eth_chainId' })).resolves.toBe('0x1')
  // A marker that does reach the wallet, sent after them: once it is answered, they would have arrived before it.
  await expect(dapp.request({ method: 'marker' })).resolves.toBe('ok')
  expect(asked).toEqual(['marker'])
  dapp.close()
  wallet.close()
})

test('behavior: the wallet error keeps its code', async () => {
  const { dapp, wallet } = await pair(bridge.url)
  wallet.on(
    'call_request',
    ({ id }) =>
      void wallet.rejectRequest({ id, error: { code: 4001, message: 'User rejected', data: { x: 1 } } }),
  )
  const error = await dapp
    .request({ method: 'personal_sign', params: ['0x00', account] })
    .catch((e: unknown) => e)
  expect(error).toBeInstanceOf(RpcError)
  expect(error).toMatchObject({ code: 4001, message: 'User rejected', data: { x: 1 } })
  dapp.close()
  wallet.close()
})

test('behavior: transactions and personal_sign are normalised as v1 does', async () => {
  const { dapp, wallet } = await pair(bridge.url)
  const seen: unknown[] = []
  wallet.on('call_request', ({ id, params }) => {
    seen.push(params)
    void wallet.approveRequest({ id, result: '0x' })
  })
  await dapp.sendTransaction({ from: account, to: account, value: 1000, gas: '21000', data: '' })
  await dapp.signPersonalMessage(['Hello World', account])
  expect(seen).toEqual([
    [{ from: account, to: account, gas: '0x5208', value: '0x3e8', data: '0x' }],
    ['0x48656c6c6f20576f726c64', account],
  ])
  dapp.close()
  wallet.close()
})

test('args: timeout', async () => {
  const { dapp, wallet } = await pair(bridge.url)
  await expect(dapp.request({ method: 'slow' }, { timeout: 50 })).rejects.toThrowError(
    new RequestTimeoutError('slow', 50),
  )
  dapp.close()
  wallet.close()
})

test('args: signal', async () => {
  const { dapp, wallet } = await pair(bridge.url)
  const controller = new AbortController()
  const pending = dapp.request({ method: 'slow' }, { signal: controller.signal })
  controller.abort(new Error('gave up'))
  await expect(pending).rejects.toThrowError('gave up')
  await expect(dapp.request({ method: 'slow' }, { signal: controller.signal })).rejects.toThrowError(
    'gave up',
  )
  // A late answer after the abort is ignored, not turned into a request.
  dapp.close()
  wallet.close()
})

test('behavior: a signing request redirects to the chosen wallet (reference §6.6)', async () => {
  const storage = createMemoryStorage()
  storage.set(
    DEEPLINK_CHOICE_STORAGE_KEY,
    JSON.stringify({ name: 'Rainbow', href: 'https://rnbwapp.com/wc' }),
  )
  const redirects: string[] = []
  const { dapp, wallet } = await pair(bridge.url, {
    dapp: { storage, redirect: (href) => redirects.push(href) },
  })
  wallet.on('call_request', ({ id }) => void wallet.approveRequest({ id, result: 1 }))
  await dapp.request({ method: 'custom_method' })
  expect(redirects).toEqual([])
  await dapp.signPersonalMessage(['hi', account])
  expect(redirects).toEqual(['https://rnbwapp.com/wc'])
  dapp.close()
  wallet.close()
})

test('behavior: pending requests reject when the session ends', async () => {
  const { dapp, wallet } = await pair(bridge.url)
  const asked = next(wallet, 'call_request')
  const pending = dapp.request({ method: 'slow' })
  await asked
  await wallet.killSession()
  await expect(pending).rejects.toThrowError(new SessionError('Session disconnected'))
})

test('error: no method', async () => {
  const dapp = createDapp({ bridge: bridge.url, storage: false })
  await expect(dapp.request({} as never)).rejects.toThrowError(
    new InvalidJsonRpcError('JSON RPC request must have valid "method" value'),
  )
})

test('error: disconnected', async () => {
  const dapp = createDapp({ bridge: bridge.url, storage: false })
  await expect(dapp.signPersonalMessage(['hi', account])).rejects.toThrowError(
    new SessionError('Session currently disconnected'),
  )
})

test('error: invalid transaction', async () => {
  const { dapp, wallet } = await pair(bridge.url)
  await expect(dapp.sendTransaction({ from: 'nope' })).rejects.toThrowError(
    "Transaction object must include a valid 'from' value.",
  )
  dapp.close()
  wallet.close()
})
