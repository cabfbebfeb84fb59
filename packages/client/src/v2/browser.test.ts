// @vitest-environment happy-dom
import { afterAll, afterEach, beforeAll, expect, test } from 'vitest'
import WebSocket from 'ws'
import { call, createPeers } from '../../test/peers.js'
import { dappMetadata, startRelay } from '../../test/sdk.js'
import { createLocalStorage } from '../storage.js'
import { createSignClient, getSessions } from './index.js'

// In a browser-like global scope (happy-dom): the page's own server is the default relay, localStorage the default
// storage, and a session kept there survives a reload.
let relay: Awaited<ReturnType<typeof startRelay>>
const { create, paired, close } = createPeers(() => relay.relayUrl, { WebSocket })
beforeAll(async () => {
  relay = await startRelay()
})
afterEach(async () => {
  await close()
  localStorage.clear()
})
afterAll(() => relay.stop())

test('default: the relay is the page’s own server and the state goes to localStorage', async () => {
  const client = createSignClient({ metadata: dappMetadata, WebSocket })
  expect(client.relayUrl).toBe(`ws://${location.host}`)
  await client.ready
  const stored = JSON.parse(localStorage.getItem('pairlink-v2') as string) as { seed: string }
  expect(stored.seed).toMatch(/^[0-9a-f]{64}$/)
  expect(client.clientId).toMatch(/^did:key:z6Mk/)
  await client.close()
})

test('behavior: a session kept in localStorage is restored by the next page load', async () => {
  const { dapp, session } = await paired({ dapp: createLocalStorage() })
  await dapp.close()
  const reloaded = create(dappMetadata, createLocalStorage())
  await reloaded.ready
  expect(getSessions(reloaded).map((s) => s.topic)).toEqual([session.topic])
  expect(await call(reloaded, session.topic, 'after reload')).toBe('after reload')
})
