import { createMemoryStorage } from '@pairlink/client'
import { ModalClosedError, SessionRejectedError } from '@pairlink/protocol'
import { checkCacaoSignature, parseIss } from '@pairlink/protocol/v2'
import { waitFor } from '@pairlink/test-kit'
import { ANVIL_CHAIN_ID } from '@pairlink/test-kit/anvil'
import { type Hex, toHex, verifyMessage } from 'viem'
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest'
import { account, startV2Stack } from '../test/walletKit.js'
import { createProvider } from './createProvider.js'
import { createV2Client, type V2Client, type V2ConnectReturnType } from './v2Client.js'

// connect({ authenticate }): the session and a sign-in with one approval (WalletConnect's one-click auth), and the
// fallback to the ordinary proposal of the same pairing. The published WalletKit 1.6.0 as the wallet, our relay and
// anvil, all real.
let stack: Awaited<ReturnType<typeof startV2Stack>>
const clients: V2Client[] = []
beforeAll(async () => {
  stack = await startV2Stack()
})
afterEach(async () => {
  for (const client of clients.splice(0)) await client.close()
  stack.behavior.proposal = [ANVIL_CHAIN_ID, 1]
  stack.behavior.authenticate = 'approve'
  stack.scan = true
  stack.shown.length = 0
  stack.authRequests.length = 0
})
afterAll(() => stack.stop())

const EXP = '2030-01-01T00:10:00.000Z'
const auth = { nonce: 'n0nce1234567', statement: 'Sign in to Pairlink.', exp: EXP }

function v2Client(pairingExpiry?: number) {
  const client = createV2Client({
    relayUrl: stack.relayUrl,
    modal: stack.modal,
    storage: createMemoryStorage(),
    chains: [1, 10],
    pairingExpiry,
  })
  clients.push(client)
  const connects: V2ConnectReturnType[] = []
  client.on('connect', (payload) => connects.push(payload))
  return { client, connects }
}

describe('connect({ authenticate })', () => {
  test('default: one URI, one approval → connected with the CACAOs (event too); requests flow over the session', async () => {
    const { client, connects } = v2Client()
    const result = await client.connect({ chainId: ANVIL_CHAIN_ID, authenticate: auth })
    expect(stack.shown).toHaveLength(1)
    expect(stack.shown[0]?.uri).toContain('methods=wc_sessionAuthenticate')
    expect(result).toMatchObject({ chainId: ANVIL_CHAIN_ID, accounts: [account.address] })
    expect(client.connected).toBe(true)
    // One CACAO per chain the wallet supports, each the account's, bound to what was asked.
    const cacaos = result.cacaos ?? []
    expect(cacaos.map((cacao) => parseIss(cacao.p.iss).chainId)).toEqual([String(ANVIL_CHAIN_ID), '1'])
    for (const cacao of cacaos) {
      expect(await checkCacaoSignature(cacao)).toBe(true)
      expect(parseIss(cacao.p.iss).address.toLowerCase()).toBe(account.address.toLowerCase())
      expect(cacao.p).toMatchObject({ nonce: auth.nonce, exp: EXP, domain: 'pairlink.invalid' })
    }
    expect(connects).toEqual([result])

    // What the wallet was asked: the connect chain first, the client's chains, the methods proposed without a sign-in.
    const [asked] = stack.authRequests
    expect(asked).toMatchObject({
      chains: [`eip155:${ANVIL_CHAIN_ID}`, 'eip155:1', 'eip155:10'],
      domain: 'pairlink.invalid',
      aud: 'https://pairlink.invalid',
      nonce: auth.nonce,
      exp: EXP,
    })
    expect(asked?.statement).toBe('Sign in to Pairlink.')
    expect(asked?.resources?.at(-1)).toMatch(/^urn:recap:/)

    const provider = createProvider({
      client,
      chainId: ANVIL_CHAIN_ID,
      rpc: { [ANVIL_CHAIN_ID]: stack.anvil.url },
    })
    const message = toHex('hello')
    const signature = (await provider.request({
      method: 'personal_sign',
      params: [message, account.address],
    })) as Hex
    expect(await verifyMessage({ address: account.address, message: { raw: message }, signature })).toBe(true)
  })

  test('args: domain, uri, chains and methods as given', async () => {
    const { client } = v2Client()
    await client.connect({
      chainId: ANVIL_CHAIN_ID,
      authenticate: {
        ...auth,
        domain: 'app.example',
        uri: 'https://app.example/login',
        chains: [ANVIL_CHAIN_ID],
        methods: ['personal_sign'],
      },
    })
    expect(stack.authRequests[0]).toMatchObject({
      chains: [`eip155:${ANVIL_CHAIN_ID}`],
      domain: 'app.example',
      aud: 'https://app.example/login',
    })
  })

  test('behavior: a wallet without one-click auth answers the same pairing’s proposal: connected, no CACAOs, no second URI', async () => {
    stack.behavior.authenticate = 'unsupported'
    const { client, connects } = v2Client()
    const result = await client.connect({ chainId: ANVIL_CHAIN_ID, authenticate: auth })
    expect(result.cacaos).toBeUndefined()
    expect(result).toMatchObject({ chainId: ANVIL_CHAIN_ID, accounts: [account.address] })
    expect(stack.shown).toHaveLength(1)
    expect(connects).toHaveLength(1)
    expect(connects[0]).not.toHaveProperty('cacaos')
  })

  test('behavior: a URI that expires unscanned is replaced by a fresh sign-in request; scanning that one signs in', async () => {
    stack.scan = false
    const { client } = v2Client(2)
    const connecting = client.connect({ chainId: ANVIL_CHAIN_ID, authenticate: auth })
    await waitFor(() => stack.shown.length === 2, { timeout: 10_000, message: 'a fresh URI' })
    expect(stack.shown[1]?.uri).not.toBe(stack.shown[0]?.uri)
    expect(stack.shown[1]?.uri).toContain('methods=wc_sessionAuthenticate')
    stack.scan = true
    await stack.scanLast()
    expect((await connecting).cacaos).toHaveLength(2)
  })

  test('args: verifyCacao — asked for each CACAO with the text its account signed', async () => {
    const { client } = v2Client()
    const asked: string[] = []
    const result = await client.connect({
      chainId: ANVIL_CHAIN_ID,
      authenticate: {
        ...auth,
        verifyCacao: (cacao, message) => {
          asked.push(message)
          return cacao.s.t === 'eip191'
        },
      },
    })
    expect(asked).toHaveLength(2)
    expect(asked[0]).toMatch(/^pairlink\.invalid wants you to sign in with your Ethereum account:\n0x/)
    expect(
      await verifyMessage({
        address: account.address,
        message: asked[0] ?? '',
        signature: result.cacaos?.[0]?.s.s as Hex,
      }),
    ).toBe(true)
  })

  test('error: the wallet refuses → SessionRejectedError with its words; not connected', async () => {
    stack.behavior.authenticate = 'reject'
    const { client, connects } = v2Client()
    const error = await client.connect({ chainId: ANVIL_CHAIN_ID, authenticate: auth }).catch((e) => e)
    expect(error).toBeInstanceOf(SessionRejectedError)
    expect(error.message).toBe('User rejected.')
    expect(client.connected).toBe(false)
    expect(connects).toEqual([])
  })

  test('error: a CACAO that fails verifyCacao → SessionRejectedError; nothing connected, no connect event', async () => {
    const { client, connects } = v2Client()
    const error = await client
      .connect({ chainId: ANVIL_CHAIN_ID, authenticate: { ...auth, verifyCacao: () => false } })
      .catch((e) => e)
    expect(error).toBeInstanceOf(SessionRejectedError)
    expect(error.message).toBe('Session settlement failed. Signature verification failed')
    expect(client.connected).toBe(false)
    expect(connects).toEqual([])
  })

  test('error: the person closes the modal → ModalClosedError (User close QRCode Modal)', async () => {
    stack.scan = false
    const { client } = v2Client()
    const connecting = client.connect({ chainId: ANVIL_CHAIN_ID, authenticate: auth }).catch((e) => e)
    await waitFor(() => stack.shown.length === 1)
    stack.closeModal()
    const error = await connecting
    expect(error).toBeInstanceOf(ModalClosedError)
    expect(error.message).toBe('User close QRCode Modal')
  })
})
