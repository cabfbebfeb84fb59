import { decodeJwt } from '@pairlink/protocol/v2'
import { waitFor } from '@pairlink/test-kit'
import { toHex } from 'viem'
import { afterAll, expect, test } from 'vitest'
import { type LoggedSocket, startLoggingRelay } from '../../test/loggingRelay.js'
import { answerRequests, createPeers, next } from '../../test/peers.js'
import {
  account,
  closeSdkClients,
  createAnsweringWalletKit,
  createSdkDapp,
  dappMetadata,
  events,
  grant,
  methods,
  walletMetadata,
} from '../../test/sdk.js'
import { approve, connect, disconnect, getSessions, pair, request } from './index.js'

// The same flow twice through one logging relay (Pairlink's relay behind a recording proxy): (a) the published
// @walletconnect/sign-client 2.25.0 dapp and @reown/walletkit 1.6.0 wallet, (b) Pairlink's v2 dapp and wallet. Per
// relay method, what they put on the wire must agree, so the dialect cannot drift from the SDK's. Every deliberate
// difference is named below with its reason; anything else that differs fails.

const PROJECT_ID = '0123456789abcdef0123456789abcdef'
const namespaces = { eip155: { chains: ['eip155:1'], methods, events } }
const switchChain = { method: 'wallet_switchEthereumChain', params: [{ chainId: '0xa' }] }
const sign = { method: 'personal_sign', params: [toHex('wire parity'), account.address] }

/** Params the SDK sends that Pairlink leaves out on purpose, per relay method. */
const ONLY_SDK_PARAMS: Record<string, Record<string, string>> = {
  irn_publish: {
    correlationId: 'analytics ("TVF") id the relay may log; Pairlink sends no analytics (relay-v2.md §3.2)',
    rpcMethods: 'TVF analytics field (the methods of a request); not needed by the relay',
    chainId: 'TVF analytics field; not needed by the relay',
    txHashes:
      'TVF analytics field (the SDK puts signatures and hashes there); Pairlink tells the relay nothing of them',
    contractAddresses: 'TVF analytics field; not needed by the relay',
  },
  wc_proposeSession: { correlationId: 'analytics id, as on irn_publish' },
  wc_approveSession: {
    correlationId: 'analytics id, as on irn_publish',
    approvedChains:
      'TVF analytics: what the wallet granted, told to the relay in clear; Pairlink keeps it encrypted',
    approvedMethods: 'TVF analytics, as approvedChains',
    approvedEvents: 'TVF analytics, as approvedChains',
  },
}

/** Relay methods one side calls in this flow and the other does not: the side, and why. */
const ONE_SIDED_METHODS: Record<string, { side: 'sdk' | 'pairlink'; reason: string }> = {
  irn_batchSubscribe: {
    side: 'pairlink',
    reason:
      'Pairlink subscribes every known topic on each open of its socket (the path that also resubscribes after a ' +
      "reconnect, as the SDK does there); the dapp's first open already knows its pairing topic, which " +
      'wc_proposeSession then subscribes implicitly: one redundant, harmless batch',
  },
}

/** Publish tags one side sends in this flow and the other does not: the side, and why. */
const ONE_SIDED_TAGS: Record<number, { side: 'sdk' | 'pairlink'; reason: string }> = {}

/** The `{sdk}` part of `ua` names the SDK: Pairlink names itself, in the same schema (`js-pairlink-{version}`). */
const UA_SDK_PART = { sdk: /^js-\d+\.\d+\.\d+$/, pairlink: /^js-pairlink-\d+\.\d+\.\d+$/ }

let relay: Awaited<ReturnType<typeof startLoggingRelay>>
afterAll(async () => {
  await closeSdkClients()
  await relay?.stop()
})

/** Flow (a): the published SDK on both sides. */
async function sdkFlow(relayUrl: string) {
  const { wallet } = await createAnsweringWalletKit(relayUrl)
  const dapp = await createSdkDapp(relayUrl)
  const { uri, approval } = await dapp.connect({ optionalNamespaces: namespaces })
  await wallet.pair({ uri: uri as string })
  const { topic } = await approval()
  await waitFor(() => wallet.getActiveSessions()[topic]?.acknowledged, { message: 'walletkit acknowledged' })
  await dapp.request({ topic, chainId: 'eip155:1', request: sign })
  const event = new Promise((resolve) => dapp.events.once('session_event', resolve))
  await dapp.request({ topic, chainId: 'eip155:1', request: switchChain })
  await event
  await dapp.disconnect({ topic, reason: { code: 6000, message: 'User disconnected.' } })
  await waitFor(() => !wallet.getActiveSessions()[topic], { message: 'walletkit session deleted' })
  await closeSdkClients()
}

/** Flow (b): Pairlink's v2 client on both sides. */
async function pairlinkFlow(relayUrl: string) {
  const { create, close } = createPeers(() => relayUrl, { projectId: PROJECT_ID })
  const dapp = create(dappMetadata)
  const wallet = create(walletMetadata)
  wallet.on('session_proposal', ({ id }) => void approve(wallet, { id, namespaces: grant() }).catch(() => {}))
  answerRequests(wallet)
  const { uri, approval } = await connect(dapp, { optionalNamespaces: namespaces })
  await pair(wallet, { uri: uri as string })
  const { topic } = await approval()
  await waitFor(() => getSessions(wallet)[0]?.acknowledged, { message: 'wallet acknowledged' })
  await request(dapp, { topic, chainId: 'eip155:1', request: sign })
  const event = next(dapp, 'session_event')
  await request(dapp, { topic, chainId: 'eip155:1', request: switchChain })
  await event
  await disconnect(dapp, { topic })
  await waitFor(() => getSessions(wallet).length === 0, { message: 'wallet session deleted' })
  await close()
}

type Frame = { id?: unknown; method?: string; params?: Record<string, unknown>; result?: unknown }

/** What one flow put on the wire, reduced to what must agree. */
function summarise(sockets: LoggedSocket[]) {
  const connections = sockets.map(({ url }) => {
    const search = new URL(url).searchParams
    const { header, payload } = decodeJwt(search.get('auth') as string)
    return {
      query: [...search.keys()].sort(),
      ua: (search.get('ua') ?? '').split('/'),
      header,
      claims: Object.keys(payload).sort(),
      aud: payload.aud,
      lifetime: (payload.exp as number) - (payload.iat as number),
    }
  })
  const calls = new Map<string, { ids: unknown[]; keys: Set<string>; ttl: Set<unknown> }>()
  const tags = new Map<number, { ttl: Set<unknown>; prompt: Set<unknown> }>()
  const acks: string[] = []
  for (const frame of sockets.flatMap(({ sent }) => sent.map((raw) => JSON.parse(raw) as Frame))) {
    if (!frame.method) {
      acks.push(Object.keys(frame).sort().join())
      continue
    }
    const call = calls.get(frame.method) ?? { ids: [], keys: new Set(), ttl: new Set() }
    calls.set(frame.method, call)
    call.ids.push(frame.id)
    for (const key of Object.keys(frame.params ?? {})) call.keys.add(key)
    call.ttl.add(frame.params?.ttl)
    if (frame.method !== 'irn_publish') continue
    const tag = frame.params?.tag as number
    const seen = tags.get(tag) ?? { ttl: new Set(), prompt: new Set() }
    tags.set(tag, seen)
    seen.ttl.add(frame.params?.ttl)
    seen.prompt.add(frame.params?.prompt)
  }
  return { connections, calls, tags, acks: [...new Set(acks)] }
}

test('default: per relay method, the published SDK and Pairlink agree on the wire', async () => {
  relay = await startLoggingRelay()
  await sdkFlow(relay.relayUrl)
  const sdk = summarise(relay.sockets.splice(0))
  await pairlinkFlow(relay.relayUrl)
  const ours = summarise(relay.sockets.splice(0))

  // The flow ran what it should: no comparison below passes by having nothing to compare.
  expect([...sdk.calls.keys()].sort()).toEqual(
    ['irn_publish', 'irn_subscribe', 'irn_unsubscribe', 'wc_approveSession', 'wc_proposeSession'].sort(),
  )
  expect([...sdk.tags.keys()].sort()).toEqual([1103, 1104, 1105, 1108, 1109, 1110, 1112])

  // The socket URL and its token, on every socket of both.
  for (const [side, { connections }] of [
    ['sdk', sdk],
    ['pairlink', ours],
  ] as const) {
    expect(connections.length).toBeGreaterThan(0)
    for (const connection of connections) {
      expect(connection.query).toEqual(['auth', 'projectId', 'ua', 'useOnCloseEvent'])
      const [protocol, name, os, id, ...rest] = connection.ua
      expect([protocol, id, rest]).toEqual(['wc-2', 'node', []])
      expect(name).toMatch(UA_SDK_PART[side])
      // Both run in this process: the same OS part, `{platform}-{node version}`.
      expect(os).toBe(sdk.connections[0]?.ua[2])
      expect(connection.header).toEqual({ alg: 'EdDSA', typ: 'JWT' })
      expect(connection.claims).toEqual(sdk.connections[0]?.claims)
      expect(connection.aud).toBe(relay.relayUrl)
      expect(connection.lifetime).toBe(86_400)
    }
  }

  // Per relay method: ids, params (less the named SDK-only ones), ttl.
  for (const method of new Set([...sdk.calls.keys(), ...ours.calls.keys()])) {
    const theirs = sdk.calls.get(method)
    const mine = ours.calls.get(method)
    if (!theirs || !mine) {
      expect(ONE_SIDED_METHODS[method], `${method} is sent by one side only`).toMatchObject({
        side: theirs ? 'sdk' : 'pairlink',
      })
      continue
    }
    for (const id of [...theirs.ids, ...mine.ids]) {
      expect(typeof id, `${method} id`).toBe('string')
      expect(id, `${method} id`).toMatch(/^\d{19}$/)
      expect(Number(id)).toBeGreaterThanOrEqual(1e9)
    }
    const only = ONLY_SDK_PARAMS[method] ?? {}
    for (const key of Object.keys(only)) expect(theirs.keys, `${method}: allow-listed ${key}`).toContain(key)
    expect([...mine.keys].sort(), `${method} params`).toEqual(
      [...theirs.keys].filter((key) => !(key in only)).sort(),
    )
    expect(mine.ttl, `${method} ttl`).toEqual(theirs.ttl)
  }
  for (const method of Object.keys(ONE_SIDED_METHODS))
    expect(sdk.calls.has(method) !== ours.calls.has(method), `${method} allow-listed yet sent by both`).toBe(
      true,
    )
  for (const method of Object.keys(ONLY_SDK_PARAMS)) expect(ours.calls.has(method)).toBe(true)

  // Per publish tag: ttl and prompt.
  for (const tag of new Set([...sdk.tags.keys(), ...ours.tags.keys()])) {
    const theirs = sdk.tags.get(tag)
    const mine = ours.tags.get(tag)
    if (!theirs || !mine) {
      expect(ONE_SIDED_TAGS[tag], `tag ${tag} is sent by one side only`).toMatchObject({
        side: theirs ? 'sdk' : 'pairlink',
      })
      continue
    }
    expect({ tag, ttl: [...mine.ttl], prompt: [...mine.prompt] }).toEqual({
      tag,
      ttl: [...theirs.ttl],
      prompt: [...theirs.prompt],
    })
  }
  // The acks of the relay's pushes.
  expect(ours.acks).toEqual(sdk.acks)
})
