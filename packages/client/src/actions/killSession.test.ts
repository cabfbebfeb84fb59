import { waitFor } from '@pairlink/test-kit'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { startBridge, type TestBridge } from '../../test/bridge.js'
import { createRecorder } from '../../test/recorder.js'
import { decodeFrames, keyOf, next, pair } from '../../test/utils.js'
import { createMemoryStorage } from '../storage.js'

let bridge: TestBridge
beforeAll(async () => {
  bridge = await startBridge()
})
afterAll(() => bridge.stop())

test('default: from the dapp', async () => {
  const storage = createMemoryStorage()
  const recorder = createRecorder()
  const { dapp, wallet, uri } = await pair(bridge.url, { dapp: { storage }, WebSocket: recorder.WebSocket })
  expect(storage.get('walletconnect')).toBeDefined()
  const local = next(dapp, 'disconnect')
  const remote = next(wallet, 'disconnect')
  const start = recorder.sent.length
  await dapp.killSession()
  expect(await local).toEqual({ message: 'Session Disconnected' })
  expect(await remote).toEqual({ message: 'Session disconnected' })
  expect([dapp.connected, wallet.connected]).toEqual([false, false])
  expect(dapp.session).toBeUndefined()
  expect(storage.get('walletconnect')).toBeUndefined()
  expect(dapp.transportState).toBe('closed')
  await waitFor(() => wallet.transportState === 'closed')
  await waitFor(() => recorder.sent.length > start)
  const [kill] = await decodeFrames(recorder.sent.slice(start), keyOf(uri))
  expect(JSON.stringify(kill?.payload)).toBe(
    JSON.stringify({
      id: kill?.payload.id,
      jsonrpc: '2.0',
      method: 'wc_sessionUpdate',
      params: [{ approved: false, chainId: null, networkId: null, accounts: null }],
    }),
  )
  expect(kill).toMatchObject({ topic: wallet.clientId, silent: true })
})

test('args: message', async () => {
  const { dapp, wallet } = await pair(bridge.url)
  const local = next(wallet, 'disconnect')
  const remote = next(dapp, 'disconnect')
  await wallet.killSession({ message: 'Bye' })
  expect(await local).toEqual({ message: 'Bye' })
  expect(await remote).toEqual({ message: 'Session disconnected' })
})
