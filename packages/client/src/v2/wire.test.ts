import { decodeJwt, decryptEnvelope } from '@pairlink/protocol/v2'
import { waitFor } from '@pairlink/test-kit'
import { afterAll, afterEach, beforeAll, expect, test } from 'vitest'
import { call, createPeers, next } from '../../test/peers.js'
import { createRecorder } from '../../test/recorder.js'
import { grant, startRelay } from '../../test/sdk.js'
import { VERSION } from '../version.js'
import { disconnect, emit, extend, ping, update } from './index.js'
import { getInternal } from './internal.js'

// What our clients put on the wire to the relay, checked against the SDK's (relay-v2.md §2–§4).
let relay: Awaited<ReturnType<typeof startRelay>>
const recorder = createRecorder()
const { paired, close } = createPeers(() => relay.relayUrl, {
  WebSocket: recorder.WebSocket,
  projectId: 'kiosk-1',
})
beforeAll(async () => {
  relay = await startRelay()
})
afterEach(() => close())
afterAll(() => relay.stop())

type Frame = { id: string; method: string; params: Record<string, unknown> }

test('default: the socket URL, the JWT, and the tag, ttl and prompt of every Sign message', async () => {
  const { dapp, wallet, session } = await paired()
  const keys = { ...getInternal(dapp).state.keys, ...getInternal(wallet).state.keys }
  expect(await call(dapp, session.topic, 'x')).toBe('x')
  await ping(dapp, { topic: session.topic })
  await extend(wallet, { topic: session.topic })
  await update(wallet, { topic: session.topic, namespaces: grant(['eip155:1', 'eip155:10']) })
  const event = next(dapp, 'session_event')
  await emit(wallet, { topic: session.topic, chainId: 'eip155:1', event: { name: 'chainChanged', data: 1 } })
  await event
  await disconnect(dapp, { topic: session.topic })
  await waitFor(() => getInternal(wallet).state.sessions[session.topic] === undefined, { message: 'deleted' })

  const url = new URL(recorder.urls[0] as string)
  expect(`${url.protocol}//${url.host}`).toBe(relay.relayUrl)
  expect(url.searchParams.get('projectId')).toBe('kiosk-1')
  expect(url.searchParams.get('ua')).toBe(
    `wc-2/js-pairlink-${VERSION}/${process.platform}-${process.versions.node}/node`,
  )
  expect(url.searchParams.get('useOnCloseEvent')).toBe('true')
  const { header, payload } = decodeJwt(url.searchParams.get('auth') as string)
  expect(header).toEqual({ alg: 'EdDSA', typ: 'JWT' })
  expect(payload).toMatchObject({ iss: dapp.clientId, aud: relay.relayUrl })
  expect((payload.exp as number) - (payload.iat as number)).toBe(86_400)

  const frames = recorder.sent.map(({ raw }) => JSON.parse(raw) as Frame & { result?: unknown })
  // Ids are the SDK's: strings of 19 digits.
  for (const frame of frames) if (frame.method) expect(frame.id).toMatch(/^\d{19}$/)
  const propose = frames.find((f) => f.method === 'wc_proposeSession')
  expect(Object.keys(propose?.params ?? {})).toEqual(['pairingTopic', 'sessionProposal', 'ttl'])
  const approve = frames.find((f) => f.method === 'wc_approveSession')
  expect(Object.keys(approve?.params ?? {}).sort()).toEqual(
    ['pairingTopic', 'sessionProposalResponse', 'sessionSettlementRequest', 'sessionTopic', 'ttl'].sort(),
  )

  // Each publish opened with its topic's key: what it carries, and the tag / ttl / prompt it went with.
  const methods = new Map<number, string>()
  const published = frames
    .filter((f) => f.method === 'irn_publish')
    .map(({ params }) => {
      const message = JSON.parse(
        decryptEnvelope({
          symKey: keys[params.topic as string] as string,
          envelope: params.message as string,
        }),
      ) as { id: number; method?: string }
      if (message.method) methods.set(message.id, message.method)
      const what = message.method ?? `${methods.get(message.id) ?? 'wc_sessionSettle'} answer`
      return [what, params.tag, params.ttl, params.prompt]
    })
  expect(published).toEqual([
    ['wc_sessionSettle answer', 1103, 300, false],
    ['wc_sessionRequest', 1108, 900, true],
    ['wc_sessionRequest answer', 1109, 900, false],
    ['wc_sessionPing', 1114, 86_400, false],
    ['wc_sessionPing answer', 1115, 86_400, false],
    ['wc_sessionExtend', 1106, 86_400, false],
    ['wc_sessionExtend answer', 1107, 86_400, false],
    ['wc_sessionUpdate', 1104, 86_400, false],
    ['wc_sessionUpdate answer', 1105, 86_400, false],
    ['wc_sessionEvent', 1110, 300, true],
    ['wc_sessionDelete', 1112, 86_400, false],
  ])
})
