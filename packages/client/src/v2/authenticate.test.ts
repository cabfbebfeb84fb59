import { checkCacaoSignature } from '@pairlink/protocol/v2'
import { waitFor } from '@pairlink/test-kit'
import { verifyMessage } from 'viem'
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest'
import { signCacaos } from '../../test/auth.js'
import { answerRequests, next } from '../../test/peers.js'
import { account, dappMetadata, grant, startRelay, walletMetadata } from '../../test/sdk.js'
import { createMemoryStorage, type SessionStorage } from '../storage.js'
import {
  approve,
  approveAuthenticate,
  authenticate,
  createSignClient,
  getPendingAuthRequests,
  getSessions,
  pair,
  rejectAuthenticate,
  request,
  type SignClient,
  SignError,
} from './index.js'

// One-click auth between our own two roles, through our relay on a real port.
let relay: Awaited<ReturnType<typeof startRelay>>
const clients: SignClient[] = []
beforeAll(async () => {
  relay = await startRelay()
})
afterEach(async () => {
  for (const client of clients.splice(0)) await client.close()
})
afterAll(() => relay.stop())

const create = (metadata: typeof dappMetadata, storage: SessionStorage = createMemoryStorage()) => {
  const client = createSignClient({ relayUrl: relay.relayUrl, metadata, storage })
  clients.push(client)
  return client
}
const parameters = {
  chains: ['eip155:1', 'eip155:10'],
  domain: 'pairlink.example',
  uri: 'https://pairlink.example/login',
  nonce: 'n0nce-1234',
  statement: 'Sign in to Pairlink.',
  methods: ['personal_sign', 'eth_signTypedData_v4'],
}

/** Our dapp authenticates; our wallet, listening to `session_authenticate`, signs every chain and approves. */
async function authenticated(storages: { dapp?: SessionStorage; wallet?: SessionStorage } = {}) {
  const dapp = create(dappMetadata, storages.dapp)
  const wallet = create(walletMetadata, storages.wallet)
  const asked = next(wallet, 'session_authenticate')
  const { uri, response } = await authenticate(dapp, parameters)
  await pair(wallet, { uri })
  const { id, topic, params } = await asked
  const auths = await signCacaos(params.authPayload)
  const approved = await approveAuthenticate(wallet, { id, auths })
  const result = await response()
  return { dapp, wallet, uri, topic, params, auths, approved, result }
}

test('default: one approval signs in and connects; both sides build the same session from the CACAOs', async () => {
  const { dapp, wallet, uri, params, auths, approved, result } = await authenticated()
  expect(uri).toMatch(/[?&]methods=wc_sessionAuthenticate(&|$)/)
  expect(params.authPayload).toMatchObject({
    type: 'caip122',
    chains: parameters.chains,
    domain: 'pairlink.example',
  })
  expect(params.requester.metadata.name).toBe(dappMetadata.name)
  expect(result.auths).toEqual(auths)
  for (const cacao of result.auths ?? []) expect(checkCacaoSignature(cacao)).toBe(true)
  const { session } = result
  expect(session.namespaces).toEqual({
    eip155: {
      chains: ['eip155:1', 'eip155:10'],
      accounts: [`eip155:1:${account.address}`, `eip155:10:${account.address}`],
      methods: ['eth_signTypedData_v4', 'personal_sign'],
      events: ['chainChanged', 'accountsChanged'],
    },
  })
  expect(approved.session).toMatchObject({ topic: session.topic, namespaces: session.namespaces })
  expect(session.peer.metadata.name).toBe(walletMetadata.name)
  expect(getSessions(dapp).map((s) => s.topic)).toEqual([session.topic])
  expect(getSessions(wallet).map((s) => s.topic)).toEqual([session.topic])
  expect(getPendingAuthRequests(wallet)).toEqual([])
  // And the session carries requests.
  answerRequests(wallet)
  const message = '0x48656c6c6f'
  const signature = await request<`0x${string}`>(dapp, {
    topic: session.topic,
    chainId: 'eip155:1',
    request: { method: 'personal_sign', params: [message, account.address] },
  })
  expect(await verifyMessage({ address: account.address, message: { raw: message }, signature })).toBe(true)
})
