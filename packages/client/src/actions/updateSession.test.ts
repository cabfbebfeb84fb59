import { SessionError } from '@pairlink/protocol'
import { waitFor } from '@pairlink/test-kit'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { startBridge, type TestBridge } from '../../test/bridge.js'
import { createRecorder } from '../../test/recorder.js'
import { createWallet, decodeFrames, keyOf, next, pair } from '../../test/utils.js'
import { createMemoryStorage } from '../storage.js'
import { updateSession } from './updateSession.js'

let bridge: TestBridge
beforeAll(async () => {
  bridge = await startBridge()
})
afterAll(() => bridge.stop())

const other = '0x0000000000000000000000000000000000000001'

test('default: wallet switches account and chain', async () => {
  const storage = createMemoryStorage()
  const recorder = createRecorder()
  const { dapp, wallet, uri } = await pair(bridge.url, { dapp: { storage }, WebSocket: recorder.WebSocket })
  const local = next(wallet, 'session_update')
  const remote = next(dapp, 'session_update')
  const start = recorder.sent.length
  await wallet.updateSession({ chainId: 5, accounts: [other] })
  expect(await local).toEqual({ chainId: 5, accounts: [other] })
  expect(await remote).toEqual({ chainId: 5, accounts: [other] })
  expect([dapp.chainId, dapp.accounts]).toEqual([5, [other]])
  expect(JSON.parse(String(storage.get('walletconnect')))).toMatchObject({ chainId: 5, accounts: [other] })
  await waitFor(() => recorder.sent.length > start)
  const [update] = await decodeFrames(recorder.sent.slice(start), keyOf(uri))
  expect(JSON.stringify(update?.payload)).toBe(
    JSON.stringify({
      id: update?.payload.id,
      jsonrpc: '2.0',
      method: 'wc_sessionUpdate',
      params: [{ approved: true, chainId: 5, networkId: 0, accounts: [other], rpcUrl: '' }],
    }),
  )
  expect(update?.silent).toBe(true)
  dapp.close()
  wallet.close()
})

test('behavior: the dapp may update too (stand-alone action)', async () => {
  const { dapp, wallet } = await pair(bridge.url)
  const remote = next(wallet, 'session_update')
  await updateSession(dapp, { chainId: 10, accounts: [other] })
  expect(await remote).toEqual({ chainId: 10, accounts: [other] })
  dapp.close()
  wallet.close()
})

test('error: disconnected (a rejection, not a throw)', async () => {
  const wallet = createWallet({ bridge: bridge.url, storage: false })
  await expect(wallet.updateSession({ chainId: 1, accounts: [] })).rejects.toThrowError(
    new SessionError('Session currently disconnected'),
  )
})
