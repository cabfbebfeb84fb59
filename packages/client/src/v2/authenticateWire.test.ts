import { decodeEnvelope, decryptEnvelope, deriveSymKey, deriveTopic } from '@pairlink/protocol/v2'
import { waitFor } from '@pairlink/test-kit'
import { afterAll, afterEach, beforeAll, expect, test } from 'vitest'
import { signCacaos } from '../../test/auth.js'
import { createPeers, next } from '../../test/peers.js'
import { createRecorder } from '../../test/recorder.js'
import { dappMetadata, startRelay, walletMetadata } from '../../test/sdk.js'
import { approveAuthenticate, authenticate, pair, rejectAuthenticate } from './index.js'
import { getInternal } from './internal.js'

// One-click auth on the wire (contract "Wire facts", relay-v2.md §4): the two publishes on the pairing, the answers
// in type 1 envelopes on the response topic, their tags and ttls.
let relay: Awaited<ReturnType<typeof startRelay>>
const recorder = createRecorder()
const { create, close } = createPeers(() => relay.relayUrl, { WebSocket: recorder.WebSocket })
beforeAll(async () => {
  relay = await startRelay()
})
afterEach(() => close())
afterAll(() => relay.stop())

type Frame = {
  method?: string
  params: { topic: string; message: string; tag: number; ttl: number; prompt: boolean }
}
const ask = {
  chains: ['eip155:1'],
  domain: 'pairlink.example',
  uri: 'https://pairlink.example',
  nonce: 'n-1',
}

test('default: request 1116 / 3600 and fallback proposal 1100 / 300 with the same key; answers 1117, 1118, 1119 in type 1', async () => {
  const publishes = () =>
    recorder.sent.map(({ raw }) => JSON.parse(raw) as Frame).filter((frame) => frame.method === 'irn_publish')
  const run = async (answer: 'approve' | 'reject' | 'unsupported') => {
    recorder.sent.length = 0
    const dapp = create(dappMetadata)
    const wallet = create(walletMetadata)
    const asked = answer === 'unsupported' ? undefined : next(wallet, 'session_authenticate')
    const { uri, response } = await authenticate(dapp, { ...ask, expiry: 7200 })
    const internal = getInternal(dapp)
    const [auth] = Object.values(internal.state.authenticating)
    const pairingKey = internal.state.keys[auth?.pairingTopic as string] as string
    const privateKey = internal.state.keys[auth?.publicKey as string] as string
    const responseTopic = deriveTopic(auth?.publicKey as string)
    await pair(wallet, { uri })
    if (asked) {
      const { id, params } = await asked
      if (answer === 'approve')
        await approveAuthenticate(wallet, { id, auths: await signCacaos(params.authPayload) })
      else await rejectAuthenticate(wallet, { id })
      await response().catch(() => {})
    }
    // Without a listener the wallet answers by itself.
    await waitFor(() => publishes().some((frame) => frame.params.topic === responseTopic), {
      message: 'answered',
    })
    const frames = publishes()
    const [request, proposal] = frames
      .slice(0, 2)
      .map((frame) => JSON.parse(decryptEnvelope({ symKey: pairingKey, envelope: frame.params.message })))
    expect([frames[0]?.params.tag, frames[0]?.params.ttl, frames[0]?.params.prompt]).toEqual([
      1116,
      7200,
      true,
    ])
    expect([frames[1]?.params.tag, frames[1]?.params.ttl, frames[1]?.params.prompt]).toEqual([
      1100,
      300,
      true,
    ])
    expect(request.method).toBe('wc_sessionAuthenticate')
    expect(proposal.method).toBe('wc_sessionPropose')
    expect(proposal.params.proposer.publicKey).toBe(request.params.requester.publicKey)
    expect(proposal.params.optionalNamespaces.eip155.methods).toEqual(['personal_sign'])
    expect(request.params.authPayload.resources).toEqual([
      'urn:recap:eyJhdHQiOnsiZWlwMTU1Ijp7InJlcXVlc3QvcGVyc29uYWxfc2lnbiI6W3t9XX19fQ',
    ])
    const reply = frames.find((frame) => frame.params.topic === responseTopic)
    const { type, senderPublicKey } = decodeEnvelope(reply?.params.message as string)
    expect(type).toBe(1)
    const opened = JSON.parse(
      decryptEnvelope({
        symKey: deriveSymKey(privateKey, senderPublicKey as string),
        envelope: reply?.params.message as string,
      }),
    )
    expect(opened.id).toBe(request.id)
    return { tag: reply?.params.tag, ttl: reply?.params.ttl, prompt: reply?.params.prompt, opened }
  }
  expect(await run('approve')).toMatchObject({
    tag: 1117,
    ttl: 3600,
    prompt: false,
    opened: { result: { cacaos: [{}] } },
  })
  expect(await run('reject')).toMatchObject({ tag: 1118, ttl: 300, opened: { error: { code: 5000 } } })
  expect(await run('unsupported')).toMatchObject({
    tag: 1119,
    ttl: 300,
    opened: { error: { code: 10001, message: 'Unsupported wc_ method. wc_sessionAuthenticate' } },
  })
})
