import { encryptEnvelope } from '@pairlink/protocol/v2'
import { waitFor } from '@pairlink/test-kit'
import { afterAll, afterEach, beforeAll, expect, test } from 'vitest'
import { WebSocketServer } from 'ws'
import { call, createPeers } from '../../test/peers.js'
import { dappMetadata, events, methods, startRelay } from '../../test/sdk.js'
import { connect } from './index.js'
import { getInternal } from './internal.js'

// The relay layer seen from the client: what it drops and counts, what it sends, how a silent relay fails a call.
let relay: Awaited<ReturnType<typeof startRelay>>
const { create, paired, close } = createPeers(() => relay.relayUrl)
beforeAll(async () => {
  relay = await startRelay()
})
afterEach(() => close())
afterAll(() => relay.stop())

test('behavior: undecryptable and non-JSON-RPC messages are counted and dropped, never thrown', async () => {
  const { dapp, wallet, session } = await paired()
  const symKey = getInternal(wallet).state.keys[session.topic] as string
  const intruder = create(dappMetadata)
  const send = (message: string) =>
    getInternal(intruder).relay.request('irn_publish', { topic: session.topic, message, ttl: 300, tag: 1108 })
  await send(encryptEnvelope({ symKey: 'ab'.repeat(32), message: '{}' }))
  await send(encryptEnvelope({ symKey, message: 'not json-rpc' }))
  await send(encryptEnvelope({ symKey, message: JSON.stringify({ jsonrpc: '2.0', id: 'x', result: 1 }) }))
  await send('not base64!')
  await waitFor(() => wallet.stats.dropped === 4, { message: 'four dropped' })
  expect(await call(dapp, session.topic, 'still fine')).toBe('still fine')
})

test('behavior: a push seen before is acked and ignored, not handled twice', async () => {
  const { wallet, session } = await paired({}, false)
  const symKey = getInternal(wallet).state.keys[session.topic] as string
  const request = {
    id: Date.now() * 1000,
    jsonrpc: '2.0',
    method: 'wc_sessionRequest',
    params: { request: { method: 'personal_sign', params: ['once'] }, chainId: 'eip155:1' },
  }
  const message = encryptEnvelope({ symKey, message: JSON.stringify(request) })
  const intruder = create(dappMetadata)
  const requests: number[] = []
  wallet.on('session_request', ({ id }) => requests.push(id))
  const { ignored } = wallet.stats
  for (let i = 0; i < 2; i++)
    await getInternal(intruder).relay.request('irn_publish', {
      topic: session.topic,
      message,
      ttl: 300,
      tag: 1108,
    })
  await waitFor(() => wallet.stats.ignored === ignored + 1, { message: 'the second push ignored' })
  expect(requests).toEqual([request.id])
})

test('behavior: a burst of requests all get their answers, and the clients go on', async () => {
  const { dapp, session } = await paired()
  const values = Array.from({ length: 40 }, (_, i) => `v${i}`)
  // Every call to the relay in flight at once: each needs an id of its own for its answer to find it.
  expect(await Promise.all(values.map((value) => call(dapp, session.topic, value)))).toEqual(values)
  expect(await call(dapp, session.topic, 'after')).toBe('after')
})

test('args: projectId is sent to the relay, which may admit only configured projects', async () => {
  const kiosk = await startRelay({ relay: { projectIds: ['kiosk-1'] } })
  try {
    const propose = async (projectId?: string) => {
      const client = create(dappMetadata, undefined, {
        relayUrl: kiosk.relayUrl,
        requestTimeout: 500,
        ...(projectId ? { projectId } : {}),
      })
      return connect(client, { optionalNamespaces: { eip155: { chains: ['eip155:1'], methods, events } } })
    }
    expect((await propose('kiosk-1')).uri).toMatch(/^wc:/)
    // Refused at the upgrade (403): the call fails at once, with why.
    await expect(propose()).rejects.toMatchObject({ code: 'ERR_RELAY_REFUSED', closeCode: 403 })
  } finally {
    await close()
    await kiosk.stop()
  }
})

test('error: a relay that never answers makes the call fail after requestTimeout', async () => {
  const server = new WebSocketServer({ host: '127.0.0.1', port: 0 })
  await new Promise((resolve) => server.once('listening', resolve))
  const { port } = server.address() as { port: number }
  const client = create(dappMetadata, undefined, { relayUrl: `ws://127.0.0.1:${port}`, requestTimeout: 100 })
  const proposal = connect(client, {
    optionalNamespaces: { eip155: { chains: ['eip155:1'], methods, events } },
  })
  await expect(proposal).rejects.toMatchObject({ name: 'RelayError', code: 'ERR_RELAY_TIMEOUT' })
  await client.close()
  await new Promise((resolve) => server.close(resolve))
})
