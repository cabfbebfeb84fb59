import { checkCacaoSignature } from '@pairlink/protocol/v2'
import { type Hex, verifyMessage } from 'viem'
import { describe, expect, test } from 'vitest'
import { approveAsSdkWallet, signCacaos } from '../../test/auth.js'
import { answerRequests, next } from '../../test/peers.js'
import {
  account,
  answer,
  createSdkDapp,
  createSdkWallet,
  createWalletKit,
  dappMetadata,
  grant,
  useRelay,
  walletMetadata,
} from '../../test/sdk.js'
import {
  approve,
  approveAuthenticate,
  authenticate,
  getSessions,
  pair,
  rejectAuthenticate,
  request,
  SignError,
} from './index.js'

// One-click auth against the published SDKs — sign-client 2.25.0 in both roles and WalletKit 1.6.0 — through our
// relay on a real port.
const relay = useRelay()
const { create } = relay
const ask = {
  chains: ['eip155:1', 'eip155:10'],
  domain: 'pairlink.example',
  uri: 'https://pairlink.example/login',
  nonce: 'n0nce-5678',
  statement: 'Sign in to Pairlink.',
  methods: ['personal_sign', 'eth_sendTransaction'],
}
const personalSign = (message: Hex) => ({
  chainId: 'eip155:1',
  request: { method: 'personal_sign', params: [message, account.address] },
})

describe('sign-client dapp, our wallet', () => {
  test('default: the SDK’s response() gives the CACAOs and the session; personal_sign over it', async () => {
    const dapp = await createSdkDapp(relay.relayUrl)
    const wallet = create(walletMetadata)
    const asked = next(wallet, 'session_authenticate')
    const { uri, response } = await dapp.authenticate(ask)
    await pair(wallet, { uri })
    const { id, params } = await asked
    expect(params.authPayload).toMatchObject({
      domain: ask.domain,
      aud: ask.uri,
      nonce: ask.nonce,
      version: '1',
    })
    const auths = await signCacaos(params.authPayload)
    const { session: own } = await approveAuthenticate(wallet, { id, auths })
    const { auths: received, session } = await response()
    expect(received).toEqual(auths)
    expect(session?.topic).toBe(own?.topic)
    expect(session?.namespaces).toEqual(own?.namespaces)
    expect(session?.namespaces.eip155?.methods).toEqual(['eth_sendTransaction', 'personal_sign'])
    answerRequests(wallet)
    const signature = await dapp.request<Hex>({ topic: session?.topic as string, ...personalSign('0x6869') })
    expect(await verifyMessage({ address: account.address, message: { raw: '0x6869' }, signature })).toBe(
      true,
    )
    // The fallback proposal was never shown.
    expect(getSessions(wallet)).toHaveLength(1)
  })

  test('behavior: our wallet without a session_authenticate listener answers 10001; the SDK falls back to the proposal', async () => {
    const dapp = await createSdkDapp(relay.relayUrl)
    const wallet = create(walletMetadata)
    const proposed = next(wallet, 'session_proposal')
    const { uri, response } = await dapp.authenticate(ask)
    await pair(wallet, { uri })
    const { id, params } = await proposed
    expect(params.optionalNamespaces.eip155?.methods).toEqual(['personal_sign', 'eth_sendTransaction'])
    await approve(wallet, { id, namespaces: grant() })
    const result = await response()
    expect(result.auths).toBeUndefined()
    expect(result.session?.namespaces.eip155?.accounts).toEqual([`eip155:1:${account.address}`])
  })
})

describe('our dapp, SDK wallets', () => {
  test('default: a sign-client wallet approves with approveSessionAuthenticate; CACAOs verify, requests flow', async () => {
    const client = create(dappMetadata)
    const wallet = await createSdkWallet(relay.relayUrl)
    wallet.on('session_authenticate', (event) => {
      approveAsSdkWallet(wallet, event, { chains: ['eip155:1'], methods: ['personal_sign'] }).catch(() => {})
    })
    wallet.on('session_request', async ({ id, topic, params }) => {
      const result = await answer(params.request.method, params.request.params)
      await wallet.respond({ topic, response: { id, jsonrpc: '2.0', result } })
    })
    const connected = next(client, 'session_connect')
    const { uri, response } = await authenticate(client, ask)
    await wallet.pair({ uri })
    const { session, auths } = await response()
    expect(auths).toHaveLength(1)
    expect(auths?.[0]?.p.iss).toBe(`did:pkh:eip155:1:${account.address}`)
    for (const cacao of auths ?? []) expect(await checkCacaoSignature(cacao)).toBe(true)
    // The wallet narrowed the ReCap to what it supports; the session is what it granted.
    expect(session.namespaces).toEqual({
      eip155: {
        chains: ['eip155:1'],
        accounts: [`eip155:1:${account.address}`],
        methods: ['personal_sign'],
        events: ['chainChanged', 'accountsChanged'],
      },
    })
    expect(await connected).toEqual({ session, auths })
    expect(wallet.session.get(session.topic).namespaces).toEqual(session.namespaces)
    const signature = await request<Hex>(client, { topic: session.topic, ...personalSign('0x6869') })
    expect(await verifyMessage({ address: account.address, message: { raw: '0x6869' }, signature })).toBe(
      true,
    )
  })

  test('default: WalletKit 1.6.0 answers session_authenticate with approveSessionAuthenticate', async () => {
    const client = create(dappMetadata)
    const wallet = await createWalletKit(relay.relayUrl)
    wallet.on('session_authenticate', (event) => {
      approveAsSdkWallet(wallet, event, { chains: ask.chains, methods: ask.methods }).catch(() => {})
    })
    const { uri, response } = await authenticate(client, ask)
    await wallet.pair({ uri })
    const { session, auths } = await response()
    expect(auths?.map((cacao) => cacao.p.iss)).toEqual(
      ask.chains.map((chain) => `did:pkh:${chain}:${account.address}`),
    )
    expect(session.namespaces.eip155?.accounts).toEqual(
      ask.chains.map((chain) => `${chain}:${account.address}`),
    )
    expect(session.namespaces.eip155?.methods).toEqual(['eth_sendTransaction', 'personal_sign'])
    expect(Object.keys(wallet.getActiveSessions())).toEqual([session.topic])
  })

  test('behavior: a sign-client wallet without a session_authenticate listener approves the fallback proposal', async () => {
    const client = create(dappMetadata)
    const wallet = await createSdkWallet(relay.relayUrl)
    wallet.on('session_proposal', ({ id }) => {
      wallet.approve({ id, namespaces: grant() }).catch(() => {})
    })
    const { uri, response } = await authenticate(client, ask)
    await wallet.pair({ uri })
    const result = await response()
    expect(result.auths).toBeUndefined()
    expect(result.session.namespaces.eip155?.accounts).toEqual([`eip155:1:${account.address}`])
    expect(getSessions(client).map((s) => s.topic)).toEqual([result.session.topic])
  })

  test('error: a sign-client wallet’s rejectSessionAuthenticate rejects response() with its reason', async () => {
    const client = create(dappMetadata)
    const wallet = await createSdkWallet(relay.relayUrl)
    wallet.on('session_authenticate', ({ id }) => {
      wallet
        .rejectSessionAuthenticate({ id, reason: { code: 5000, message: 'User rejected.' } })
        .catch(() => {})
    })
    const { uri, response } = await authenticate(client, ask)
    await wallet.pair({ uri })
    const error = await response().catch((e: unknown) => e)
    expect(error).toBeInstanceOf(SignError)
    expect(error).toMatchObject({ code: 5000, message: 'User rejected.' })
    expect(getSessions(client)).toEqual([])
  })
})

test('error: our wallet’s refusal reaches the sign-client dapp', async () => {
  const dapp = await createSdkDapp(relay.relayUrl)
  const wallet = create(walletMetadata)
  wallet.on('session_authenticate', ({ id }) => {
    rejectAuthenticate(wallet, { id }).catch(() => {})
  })
  const { uri, response } = await dapp.authenticate(ask)
  await pair(wallet, { uri })
  await expect(response()).rejects.toBe('User rejected.')
})
