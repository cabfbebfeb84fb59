import { afterAll, beforeAll, expect, test } from 'vitest'
import { startBridge, type TestBridge } from '../../test/bridge.js'
import { createDapp, createTestModal, next, pair } from '../../test/utils.js'
import { ClientClosedError } from '../errors.js'
import { createMemoryStorage } from '../storage.js'

let bridge: TestBridge
beforeAll(async () => {
  bridge = await startBridge()
})
afterAll(() => bridge.stop())

test('default: closes the socket, keeps the session, settles what is pending', async () => {
  const storage = createMemoryStorage()
  const { dapp, wallet } = await pair(bridge.url, { dapp: { storage } })
  const asked = next(wallet, 'call_request')
  const pending = dapp.request({ method: 'slow' })
  await asked
  dapp.close()
  await expect(pending).rejects.toThrowError(new ClientClosedError())
  expect(dapp.transportState).toBe('closed')
  expect(dapp.connected).toBe(true)
  expect(storage.get('walletconnect')).toBeDefined()
  wallet.close()
})

test('behavior: a pending connect rejects', async () => {
  const modal = createTestModal()
  const dapp = createDapp({ bridge: bridge.url, modal, storage: false })
  const connecting = dapp.connect()
  await modal.opened
  dapp.close()
  await expect(connecting).rejects.toThrowError(new ClientClosedError())
})
