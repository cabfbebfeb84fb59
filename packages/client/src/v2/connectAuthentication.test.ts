import type { AuthPayload } from '@pairlink/protocol/v2'
import { waitFor } from '@pairlink/test-kit'
import { describe, expect, test, vi } from 'vitest'
import { signAsSdkWallet, signCacaos, verifyWithSdkText } from '../../test/auth.js'
import { next } from '../../test/peers.js'
import {
  account,
  createSdkDapp,
  createSdkWallet,
  dappMetadata,
  events,
  grant,
  methods,
  useRelay,
  walletMetadata,
} from '../../test/sdk.js'
import { createMemoryStorage, type SessionStorage } from '../storage.js'
import { approve, type ConnectAuthentication, connect, getSessions, pair, SignError } from './index.js'

// One-click auth inside the proposal (the SDK's `connect({ authentication })`, settled with
// `proposalRequestsResponses`), against sign-client 2.25.0 in both roles, through our relay on a real port.
const relay = useRelay()
const { create } = relay
const signIn = {
  chains: ['eip155:1', 'eip155:10'],
  domain: 'pairlink.example',
  uri: 'https://pairlink.example/login',
  nonce: 'n0nce-9012',
  statement: 'Sign in to Pairlink.',
} satisfies ConnectAuthentication
const optionalNamespaces = { eip155: { chains: ['eip155:1'], methods, events } }

/** Our dapp asks for a session and a sign-in; our wallet answers the proposal with `sign(request)`'s CACAOs. */
async function ourPeers(sign: (request: AuthPayload) => Promise<unknown[]>, storages: SessionStorage[] = []) {
  const dapp = create(dappMetadata, storages[0])
  const wallet = create(walletMetadata, storages[1])
  const proposed = next(wallet, 'session_proposal')
  const { uri, approval } = await connect(dapp, { optionalNamespaces, authentication: [signIn] })
  await pair(wallet, { uri: uri as string })
  const { id, params } = await proposed
  const request = params.requests?.authentication?.[0] as AuthPayload
  const authentication = (await sign(request)) as never[]
  const { acknowledged } = await approve(wallet, {
    id,
    namespaces: grant(),
    proposalRequestsResponses: { authentication },
  })
  return { dapp, wallet, approval, acknowledged, authentication }
}

describe('sign-client dapp, our wallet', () => {
  test('default: connect({ authentication }) reaches our wallet as requests.authentication; the CACAOs settle', async () => {
    const dapp = await createSdkDapp(relay.relayUrl)
    const wallet = create(walletMetadata)
    const proposed = next(wallet, 'session_proposal')
    const { uri, approval } = await dapp.connect({
      optionalNamespaces,
      authentication: [{ ...signIn, ttl: 600 }],
    })
    await pair(wallet, { uri: uri as string })
    const { id, params } = await proposed
    const [request] = params.requests?.authentication ?? []
    expect(request).toMatchObject({
      type: 'caip122',
      domain: signIn.domain,
      aud: signIn.uri,
      nonce: signIn.nonce,
      version: '1',
      chains: signIn.chains,
      statement: signIn.statement,
    })
    // The SDK gives the proposal the first sign-in's ttl.
    expect(params.expiryTimestamp).toBeGreaterThan(Date.now() / 1000 + 500)
    const authentication = await signCacaos(request as AuthPayload)
    const { acknowledged } = await approve(wallet, {
      id,
      namespaces: grant(),
      proposalRequestsResponses: { authentication },
    })
    const session = await approval()
    expect(session.authentication).toEqual(authentication)
    expect(await verifyWithSdkText(session.authentication ?? [])).toEqual([true, true])
    expect((await acknowledged()).authentication).toEqual(authentication)
  })
})

describe('our dapp', () => {
  test('default: a sign-client wallet approves with proposalRequestsResponses; approval() gives the CACAOs', async () => {
    const client = create(dappMetadata)
    const wallet = await createSdkWallet(relay.relayUrl)
    const verifyCacao = vi.fn(async () => true)
    wallet.on('session_proposal', async ({ id, params }) => {
      const request = (params.requests?.authentication?.[0] ?? {}) as unknown as AuthPayload
      const authentication = await signAsSdkWallet(request, ['eip155:1'])
      await wallet.approve({
        id,
        namespaces: grant(),
        proposalRequestsResponses: { authentication } as never,
      })
    })
    const { uri, approval } = await connect(client, {
      optionalNamespaces,
      authentication: [signIn],
      verifyCacao,
    })
    await wallet.pair({ uri: uri as string })
    const session = await approval()
    expect(session.authentication?.map((cacao) => cacao.p.iss)).toEqual([
      `did:pkh:eip155:1:${account.address}`,
    ])
    expect(await verifyWithSdkText(session.authentication ?? [])).toEqual([true])
    // The app's check saw the very text the SDK wallet signed.
    expect(verifyCacao).toHaveBeenCalledOnce()
    const [cacao, message] = verifyCacao.mock.calls[0] as unknown as [never, string]
    expect(message).toContain(`${signIn.domain} wants you to sign in with your Ethereum account:`)
    expect(cacao).toEqual(session.authentication?.[0])
    expect(wallet.session.get(session.topic).authentication).toEqual(session.authentication)
  })

  test('behavior: a wallet that signs nothing settles the session without authentication (the SDK allows it)', async () => {
    const client = create(dappMetadata)
    const wallet = await createSdkWallet(relay.relayUrl)
    wallet.on('session_proposal', ({ id }) => {
      wallet.approve({ id, namespaces: grant() }).catch(() => {})
    })
    const { uri, approval } = await connect(client, { optionalNamespaces, authentication: [signIn] })
    await wallet.pair({ uri: uri as string })
    const session = await approval()
    expect(session.authentication).toBeUndefined()
    expect(session.namespaces.eip155?.accounts).toEqual([`eip155:1:${account.address}`])
  })

  test('behavior: our wallet keeps the CACAOs; both sides keep session.authentication through a reload', async () => {
    const storages = [createMemoryStorage(), createMemoryStorage()]
    const { dapp, wallet, approval, acknowledged, authentication } = await ourPeers(
      (request) => signCacaos(request),
      storages,
    )
    const session = await approval()
    expect(session.authentication).toEqual(authentication)
    await acknowledged()
    await dapp.close()
    await wallet.close()
    const [dappAgain, walletAgain] = [create(dappMetadata, storages[0]), create(walletMetadata, storages[1])]
    await dappAgain.ready
    await walletAgain.ready
    expect(getSessions(dappAgain).map((s) => s.authentication)).toEqual([authentication])
    expect(getSessions(walletAgain).map((s) => s.authentication)).toEqual([authentication])
  })

  test.each([
    [
      'a signature over other text',
      async (request: AuthPayload) => {
        const [cacao] = await signCacaos(request, { chains: ['eip155:1'] })
        return { ...cacao, p: { ...cacao?.p, statement: `${request.statement} And more.` } }
      },
      'Signature verification failed',
    ],
    [
      'a CACAO for another nonce',
      async (request: AuthPayload) =>
        (await signCacaos({ ...request, nonce: 'another-nonce' }, { chains: ['eip155:1'] }))[0],
      'Cacao does not match the request: nonce',
    ],
  ])('error: %s refuses the settlement (7000); nothing is kept', async (_, sign, reason) => {
    const { dapp, wallet, approval, acknowledged } = await ourPeers(async (request) => [await sign(request)])
    const error = await approval().catch((e: unknown) => e)
    expect(error).toBeInstanceOf(SignError)
    expect(error).toMatchObject({ code: 7000, message: `Session settlement failed. ${reason}` })
    await expect(acknowledged()).rejects.toMatchObject({ code: 7000 })
    expect(getSessions(dapp)).toEqual([])
    await waitFor(() => getSessions(wallet).length === 0, { message: 'the wallet dropped the session' })
  })
})
