import { SessionError } from '@pairlink/protocol'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { type Relay, startRelay } from '../../test/relay.js'
import { decodeFrames, keyOf, next, pair, until } from '../../test/utils.js'
import { createClient } from '../createClient.js'
import { createMemoryStorage } from '../storage.js'

let relay: Relay
beforeAll(async () => {
  relay = await startRelay()
})
afterAll(() => relay.stop())

const other = '0x0000000000000000000000000000000000000001'

test('default: wallet switches account and chain', async () => {
  const storage = createMemoryStorage()
  const { dapp, wallet, uri } = await pair(relay.url, { dapp: { storage } })
  const local = next(wallet, 'session_update')
  const remote = next(dapp, 'session_update')
  const start = relay.frames.length
  await wallet.updateSession({ chainId: 5, accounts: [other] })
  expect(await local).toEqual({ chainId: 5, accounts: [other] })
  expect(await remote).toEqual({ chainId: 5, accounts: [other] })
  expect([dapp.chainId, dapp.accounts]).toEqual([5, [other]])
  expect(JSON.parse(String(storage.get('walletconnect')))).toMatchObject({ chainId: 5, accounts: [other] })
  await until(() => relay.frames.length > start)
  const [update] = await decodeFrames(relay.frames.slice(start), keyOf(uri))
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

test('behavior: the dapp may update too', async () => {
  const { dapp, wallet } = await pair(relay.url)
  const remote = next(wallet, 'session_update')
  await dapp.updateSession({ chainId: 10, accounts: [other] })
  expect(await remote).toEqual({ chainId: 10, accounts: [other] })
  dapp.close()
  wallet.close()
})

test('error: disconnected', () => {
  const dapp = createClient({ bridge: relay.url, storage: false })
  expect(() => dapp.updateSession({ chainId: 1, accounts: [] })).toThrowError(
    new SessionError('Session currently disconnected'),
  )
})
