import { type Cacao, checkCacaoSignature } from '@pairlink/protocol/v2'
import { waitFor } from '@pairlink/test-kit'
import { verifyMessage } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { describe, expect, test, vi } from 'vitest'
import { signCacaos } from '../../test/auth.js'
import { answerRequests, next } from '../../test/peers.js'
import { account, dappMetadata, grant, useRelay, walletMetadata } from '../../test/sdk.js'
import { createMemoryStorage, type SessionStorage } from '../storage.js'
import {
  approve,
  approveAuthenticate,
  authenticate,
  getPendingAuthRequests,
  getSessions,
  pair,
  rejectAuthenticate,
  request,
  type SignClient,
  SignError,
} from './index.js'

// One-click auth between our own two roles, through our relay on a real port.
const relay = useRelay()
const { create } = relay
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
  for (const cacao of result.auths ?? []) expect(await checkCacaoSignature(cacao)).toBe(true)
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

test('behavior: a listening wallet does not show the fallback proposal; a reload of both sides keeps the session', async () => {
  const storages = { dapp: createMemoryStorage(), wallet: createMemoryStorage() }
  const first = await authenticated(storages)
  const proposals: unknown[] = []
  first.wallet.on('session_proposal', (event) => proposals.push(event))
  // Both messages (the request, then the proposal) were handled.
  await waitFor(() => first.wallet.stats.received >= 2, { message: 'proposal received' })
  expect(proposals).toEqual([])
  const { topic } = first.result.session
  await relay.closeClients()

  const dapp = create(dappMetadata, storages.dapp)
  const wallet = create(walletMetadata, storages.wallet)
  await Promise.all([dapp.ready, wallet.ready])
  expect(getSessions(dapp).map((s) => s.topic)).toEqual([topic])
  expect(getSessions(wallet).map((s) => s.topic)).toEqual([topic])
  answerRequests(wallet)
  const signature = await request<`0x${string}`>(dapp, {
    topic,
    chainId: 'eip155:10',
    request: { method: 'personal_sign', params: ['0x6869', account.address] },
  })
  expect(await verifyMessage({ address: account.address, message: { raw: '0x6869' }, signature })).toBe(true)
})

test('behavior: our wallet without a listener answers 10001; our dapp falls back to the proposal at once', async () => {
  const dapp = create(dappMetadata)
  const wallet = create(walletMetadata)
  wallet.on('session_proposal', ({ id }) => {
    approve(wallet, { id, namespaces: grant() }).catch(() => {})
  })
  const { uri, response } = await authenticate(dapp, parameters)
  await pair(wallet, { uri })
  const result = await response()
  expect(result.auths).toBeUndefined()
  expect(result.session.namespaces.eip155?.accounts).toEqual([`eip155:1:${account.address}`])
  expect(getSessions(dapp).map((s) => s.topic)).toEqual([result.session.topic])
})

describe('errors', () => {
  /** Our dapp asks; our wallet answers with `answer`; resolves with what response() rejected with. */
  async function refused(
    answer: (wallet: SignClient, id: number, auths: Cacao[]) => Promise<unknown>,
    sign = signCacaos,
  ) {
    const dapp = create(dappMetadata)
    const wallet = create(walletMetadata)
    const asked = next(wallet, 'session_authenticate')
    const connected = vi.fn()
    dapp.on('session_connect', connected)
    const { uri, response } = await authenticate(dapp, parameters)
    await pair(wallet, { uri })
    const { id, params } = await asked
    await answer(wallet, id, await sign(params.authPayload))
    const error = await response().catch((caught: unknown) => caught)
    expect(getSessions(dapp)).toEqual([])
    expect(connected).not.toHaveBeenCalled()
    return { error, wallet }
  }

  test('error: rejectAuthenticate rejects response() with 5000, or the reason given', async () => {
    const { error } = await refused((wallet, id) => rejectAuthenticate(wallet, { id }))
    expect(error).toBeInstanceOf(SignError)
    expect(error).toMatchObject({ code: 5000, message: 'User rejected.' })
    const reason = { code: 5100, message: 'Unsupported chains.' }
    expect((await refused((wallet, id) => rejectAuthenticate(wallet, { id, reason }))).error).toMatchObject(
      reason,
    )
  })

  test('error: a CACAO not signed by its account is refused with 7000 and nothing is kept', async () => {
    const other = privateKeyToAccount('0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d')
    const { error } = await refused(
      (wallet, id, auths) => approveAuthenticate(wallet, { id, auths }),
      async (request) => {
        const [signed] = await signCacaos(request, { signer: other })
        // The other key's signature under the dev account's iss.
        const [own] = await signCacaos(request)
        return [{ ...(own as Cacao), s: (signed as Cacao).s }]
      },
    )
    expect(error).toBeInstanceOf(SignError)
    expect(error).toMatchObject({
      code: 7000,
      message: 'Session settlement failed. Signature verification failed',
    })
  })

  test.each<[string, Partial<Cacao['p']> | { chain: string }]>([
    ['nonce', { nonce: 'another-nonce' }],
    ['domain', { domain: 'evil.example' }],
    ['aud', { aud: 'https://evil.example' }],
    ['statement', { statement: 'Something else' }],
    ['exp', { exp: '2000-01-01T00:00:00.000Z' }],
    ['chain', { chain: 'eip155:137' }],
  ])('error: a signed CACAO for another request (%s) is refused with 7000', async (field, change) => {
    const { error } = await refused(
      (wallet, id, auths) => approveAuthenticate(wallet, { id, auths }),
      (request) =>
        'chain' in change
          ? signCacaos(request, { chains: [change.chain] })
          : signCacaos(request, { fields: change }),
    )
    expect(error).toMatchObject({
      code: 7000,
      message: `Session settlement failed. Cacao does not match the request: ${field}`,
    })
  })

  test('error: verifyCacao decides; a throwing one refuses', async () => {
    const dapp = create(dappMetadata)
    const wallet = create(walletMetadata)
    const seen: string[] = []
    wallet.on('session_authenticate', async ({ id, params }) => {
      const auths = await signCacaos(params.authPayload, { chains: ['eip155:1'] })
      // The dapp may have the answer before the relay confirmed the publish: the test ends, the wallet closes.
      await approveAuthenticate(wallet, { id, auths }).catch(() => {})
    })
    const { uri, response } = await authenticate(dapp, {
      ...parameters,
      verifyCacao: (_, message) => {
        seen.push(message)
        throw new Error('no node')
      },
    })
    await pair(wallet, { uri })
    await expect(response()).rejects.toMatchObject({ code: 7000 })
    expect(seen[0]).toMatch(/^pairlink\.example wants you to sign in with your Ethereum account:\n/)
  })

  test('error: the URI expires unanswered: response() rejects ERR_PROPOSAL_EXPIRED, as connect’s approval()', async () => {
    const dapp = create(dappMetadata)
    const expired = next(dapp, 'proposal_expire')
    const { response } = await authenticate(dapp, { ...parameters, pairingExpiry: 1 })
    await expect(response()).rejects.toMatchObject({ code: 'ERR_PROPOSAL_EXPIRED' })
    await expired
    expect(dapp.stats.received).toBe(0)
  })

  test('error: approving or rejecting an unknown request, or with no CACAO', async () => {
    const wallet = create(walletMetadata)
    await expect(approveAuthenticate(wallet, { id: 1, auths: [] })).rejects.toMatchObject({
      code: 'ERR_AUTH_REQUEST_UNKNOWN',
    })
    await expect(rejectAuthenticate(wallet, { id: 1 })).rejects.toMatchObject({
      code: 'ERR_AUTH_REQUEST_UNKNOWN',
    })
    await expect(authenticate(create(dappMetadata), { ...parameters, chains: [] })).rejects.toMatchObject({
      code: 5100,
    })
  })
})
