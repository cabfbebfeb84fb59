import { afterAll, beforeAll, expect, test } from 'vitest'
import { type Relay, startRelay } from '../../test/relay.js'
import { createTestModal, pair, sleep } from '../../test/utils.js'
import { createClient } from '../createClient.js'
import { ClientClosedError } from '../errors.js'
import { createMemoryStorage } from '../storage.js'

let relay: Relay
beforeAll(async () => {
  relay = await startRelay()
})
afterAll(() => relay.stop())

test('default: closes the socket, keeps the session, settles what is pending', async () => {
  const storage = createMemoryStorage()
  const { dapp, wallet } = await pair(relay.url, { dapp: { storage } })
  const pending = dapp.request({ method: 'slow' })
  await sleep(20)
  dapp.close()
  await expect(pending).rejects.toThrowError(new ClientClosedError())
  expect(dapp.transportState).toBe('closed')
  expect(dapp.connected).toBe(true)
  expect(storage.get('walletconnect')).toBeDefined()
  wallet.close()
})

test('behavior: a pending connect rejects', async () => {
  const modal = createTestModal()
  const dapp = createClient({ bridge: relay.url, modal, storage: false })
  const connecting = dapp.connect()
  await modal.opened
  dapp.close()
  await expect(connecting).rejects.toThrowError(new ClientClosedError())
})
