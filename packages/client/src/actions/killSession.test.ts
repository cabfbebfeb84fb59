import { afterAll, beforeAll, expect, test } from 'vitest'
import { type Relay, startRelay } from '../../test/relay.js'
import { decodeFrames, keyOf, next, pair, until } from '../../test/utils.js'
import { createMemoryStorage } from '../storage.js'

let relay: Relay
beforeAll(async () => {
  relay = await startRelay()
})
afterAll(() => relay.stop())

test('default: from the dapp', async () => {
  const storage = createMemoryStorage()
  const { dapp, wallet, uri } = await pair(relay.url, { dapp: { storage } })
  expect(storage.get('walletconnect')).toBeDefined()
  const local = next(dapp, 'disconnect')
  const remote = next(wallet, 'disconnect')
  const start = relay.frames.length
  await dapp.killSession()
  expect(await local).toEqual({ message: 'Session Disconnected' })
  expect(await remote).toEqual({ message: 'Session disconnected' })
  expect([dapp.connected, wallet.connected]).toEqual([false, false])
  expect(dapp.session).toBeUndefined()
  expect(storage.get('walletconnect')).toBeUndefined()
  expect(dapp.transportState).toBe('closed')
  await until(() => wallet.transportState === 'closed')
  await until(() => relay.frames.length > start)
  const [kill] = await decodeFrames(relay.frames.slice(start), keyOf(uri))
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
  const { dapp, wallet } = await pair(relay.url)
  const local = next(wallet, 'disconnect')
  const remote = next(dapp, 'disconnect')
  await wallet.killSession({ message: 'Bye' })
  expect(await local).toEqual({ message: 'Bye' })
  expect(await remote).toEqual({ message: 'Session disconnected' })
})
