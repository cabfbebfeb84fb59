import { randomBytes } from 'node:crypto'
import { createServer, type Server } from 'node:http'
import { createRequire } from 'node:module'
import { getRequestListener } from '@hono/node-server'
import { freePort, waitFor } from '@pairlink/test-kit'
import {
  deployAccountFactory,
  deploySmartAccount,
  type SmartAccount,
  signAsSmartAccount,
  smartAccountAddress,
} from '@pairlink/test-kit/accounts'
import { ANVIL_ACCOUNT, type Anvil, rpc, startAnvil } from '@pairlink/test-kit/anvil'
import { startPostgres, type TestPostgres } from '@pairlink/test-kit/postgres'
import { createWalletClient, http } from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { foundry } from 'viem/chains'
import { createSiweMessage } from 'viem/siwe'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { createDatabase, type Database } from '../db/createDatabase.js'
import { type ChainReader, type ChainVerifier, createChainReader } from '../payments/chainReader.js'
import { createSite } from '../site.js'
import { createApi } from './createApi.js'

// anvil's first two dev accounts.
const alice = privateKeyToAccount(ANVIL_ACCOUNT.privateKey)
const mallory = privateKeyToAccount('0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d')
const CHAIN_ID = 31337
const NONCE_BURST = 200
/** Budgets the suite does not run into: each test below signs in and records payments several times. */
const LOOSE = { burst: 10_000, perSecond: 1000 }

let anvil: Anvil
let chain: ChainReader & ChainVerifier
// The factory of the smart accounts below (packages/smart-account/contracts/PairlinkAccount.sol), at its fixed address.
let factory: `0x${string}`
beforeAll(async () => {
  anvil = await startAnvil({ blockTime: 0 })
  chain = createChainReader({ url: anvil.url })
  factory = await deployAccountFactory(anvil.url)
})
// The published SDK's wallet side of one-click auth (@walletconnect/utils 2.25.0, as sign-client 2.25.0 resolves it).
const sdk = createRequire(createRequire(import.meta.url).resolve('@walletconnect/sign-client'))(
  '@walletconnect/utils',
) as {
  formatMessage(payload: Record<string, unknown>, iss: string): string
  buildAuthObject(payload: Record<string, unknown>, signature: { t: string; s: string }, iss: string): unknown
  createEncodedRecap(resource: string, ability: string, actions: string[]): string
}
/** A smart account of a fresh owner key: its address is known before it is deployed. */
const smartAccount = (): SmartAccount => ({
  factory,
  owner: generatePrivateKey(),
  salt: `0x${randomBytes(32).toString('hex')}`,
})
afterAll(() => anvil?.stop())
/** A real payment from alice on the dev chain, mined (anvil mines it a moment after it answers). */
async function pay(value = 10_000_000_000_000_000n) {
  const hash = await createWalletClient({
    account: alice,
    chain: foundry,
    transport: http(anvil.url),
  }).sendTransaction({ to: mallory.address, value })
  await waitFor(() => chain.receipt(hash), { timeout: 10_000, message: 'the payment mined' })
  return hash
}

describe.each(['sqlite', 'postgres'] as const)('createApi on %s', (kind) => {
  let db: Database
  let postgres: TestPostgres | undefined
  let server: Server
  let origin: string
  let host: string

  beforeAll(async () => {
    postgres = kind === 'postgres' ? await startPostgres() : undefined
    db = await createDatabase({ url: postgres?.url })
    // Every test takes nonces; the flood test below takes the rest of the burst.
    server = createServer()
    const api = createApi({
      db,
      chain,
      chainId: CHAIN_ID,
      site: createSite({ listening: () => server.address() }),
      limits: {
        nonce: { burst: NONCE_BURST, perSecond: 0.001 },
        verify: LOOSE,
        payments: LOOSE,
        paymentsPerAccount: LOOSE,
      },
    })
    server.on('request', getRequestListener(api.fetch))
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    host = `127.0.0.1:${(server.address() as { port: number }).port}`
    origin = `http://${host}`
  }, 60_000)

  afterAll(async () => {
    server?.close()
    await db?.close()
    await postgres?.stop()
  })

  const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
    fetch(`${origin}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin, ...headers },
      body: typeof body === 'string' ? body : JSON.stringify(body),
    })
  const nonce = async () => ((await (await fetch(`${origin}/api/nonce`)).json()) as { nonce: string }).nonce
  const message = async (overrides: Partial<Parameters<typeof createSiweMessage>[0]> = {}) =>
    createSiweMessage({
      address: alice.address,
      chainId: CHAIN_ID,
      domain: host,
      nonce: await nonce(),
      uri: origin,
      version: '1',
      issuedAt: new Date(),
      statement: 'Sign in to Pairlink',
      ...overrides,
    })
  const signedIn = async (signer = alice) => {
    const text = await message({ address: signer.address })
    const response = await post('/api/verify', {
      message: text,
      signature: await signer.signMessage({ message: text }),
    })
    expect(response.status).toBe(200)
    return response.headers.get('set-cookie')!.split(';')[0]!
  }
  /** `GET /api/me` with this cookie answers 200 signed out (not a 401, which browsers log as an error). */
  const expectSignedOut = async (cookie: string) => {
    const response = await fetch(`${origin}/api/me`, { headers: { cookie } })
    expect(response.status).toBe(200)
    expect(await response.clone().json()).toEqual({ signedIn: false })
    return response
  }
  /** Rows of each table an API call may write: accounts, sessions, used nonces, payments. */
  const counts = async () => {
    const [row] = await db.query<{ a: string; s: string; u: string; p: string }>(
      `SELECT (SELECT count(*) FROM accounts) AS a, (SELECT count(*) FROM sessions) AS s,
              (SELECT count(*) FROM nonces WHERE used_at IS NOT NULL) AS u, (SELECT count(*) FROM payments) AS p`,
    )
    return {
      accounts: Number(row?.a),
      sessions: Number(row?.s),
      usedNonces: Number(row?.u),
      payments: Number(row?.p),
    }
  }

  test('default: nonce → sign → verify → cookie → me → logout', async () => {
    const first = await nonce()
    expect(first).toMatch(/^[a-zA-Z0-9]{8,}$/)
    expect(await nonce()).not.toBe(first)

    const text = await message()
    const response = await post('/api/verify', {
      message: text,
      signature: await alice.signMessage({ message: text }),
    })
    expect(await response.json()).toEqual({ address: alice.address, chainId: CHAIN_ID })
    const cookie = response.headers.get('set-cookie')!
    expect(cookie).toMatch(/^pairlink_session=[\w-]{43}; Path=\/; HttpOnly; SameSite=Lax; Max-Age=\d+$/)
    const session = cookie.split(';')[0]!

    const me = (await (await fetch(`${origin}/api/me`, { headers: { cookie: session } })).json()) as Record<
      string,
      unknown
    >
    expect(me).toMatchObject({ signedIn: true, address: alice.address, chainId: CHAIN_ID })
    expect(typeof me.firstSeen).toBe('string')

    const out = await post('/api/logout', {}, { cookie: session })
    expect(out.headers.get('set-cookie')).toContain('Max-Age=0')
    await expectSignedOut(session)
  })

  test('behavior: the session token rotates on every sign-in', async () => {
    const first = await signedIn()
    const text = await message()
    const again = await post(
      '/api/verify',
      { message: text, signature: await alice.signMessage({ message: text }) },
      { cookie: first },
    )
    const second = again.headers.get('set-cookie')!.split(';')[0]!
    expect(second).not.toBe(first)
    await expectSignedOut(first)
    expect(await (await fetch(`${origin}/api/me`, { headers: { cookie: second } })).json()).toMatchObject({
      signedIn: true,
    })
  })

  describe('smart accounts', () => {
    // Signs a fresh message for the account and posts it: its owner's signature, EIP-6492-wrapped unless deployed.
    const verifyAs = async (account: SmartAccount, deployed: boolean, signer: SmartAccount = account) => {
      const text = await message({ address: smartAccountAddress(account) })
      const signature = await signAsSmartAccount(signer, text, { deployed })
      return post('/api/verify', { message: text, signature })
    }

    test('behavior: a deployed contract account signs in (EIP-1271); another key’s signature for it is refused', async () => {
      const account = smartAccount()
      const address = await deploySmartAccount(anvil.url, account)
      const response = await verifyAs(account, true)
      expect(response.status).toBe(200)
      expect(await response.json()).toEqual({ address, chainId: CHAIN_ID })
      const before = await counts()
      const refused = await verifyAs(account, true, { ...account, owner: generatePrivateKey() })
      expect(refused.status).toBe(401)
      expect(((await refused.json()) as { error: string }).error).toMatch(/not from the message’s address/)
      expect(await counts()).toEqual(before)
    })

    test('behavior: an account not deployed yet signs in with an EIP-6492 signature and stays undeployed; a wrong one is refused', async () => {
      const account = smartAccount()
      const address = smartAccountAddress(account)
      const response = await verifyAs(account, false)
      expect(response.status).toBe(200)
      expect(await response.json()).toEqual({ address, chainId: CHAIN_ID })
      const cookie = response.headers.get('set-cookie')!.split(';')[0]!
      expect(await (await fetch(`${origin}/api/me`, { headers: { cookie } })).json()).toMatchObject({
        signedIn: true,
        address,
      })
      const before = await counts()
      const refused = await verifyAs(account, false, { ...account, owner: generatePrivateKey() })
      expect(refused.status).toBe(401)
      expect(await counts()).toEqual(before)
      expect(await rpc(anvil.url, 'eth_getCode', [address, 'latest'])).toBe('0x')
    })

    test('error: the node unreachable: a smart account’s sign-in is a 503 and writes nothing; a key’s still signs in', async () => {
      // The same database behind an API whose node is a port nobody listens on.
      const dead = createServer()
      dead.on(
        'request',
        getRequestListener(
          createApi({
            db,
            chain: createChainReader({ url: `http://127.0.0.1:${await freePort()}` }),
            chainId: CHAIN_ID,
            site: createSite({ listening: () => dead.address() }),
            limits: { verify: LOOSE, nonce: LOOSE },
          }).fetch,
        ),
      )
      await new Promise<void>((resolve) => dead.listen(0, '127.0.0.1', resolve))
      try {
        const deadHost = `127.0.0.1:${(dead.address() as { port: number }).port}`
        const deadOrigin = `http://${deadHost}`
        const attempt = async (address: `0x${string}`, sign: (text: string) => Promise<`0x${string}`>) => {
          const { nonce: fresh } = (await (await fetch(`${deadOrigin}/api/nonce`)).json()) as {
            nonce: string
          }
          const text = await message({ address, domain: deadHost, uri: deadOrigin, nonce: fresh })
          return fetch(`${deadOrigin}/api/verify`, {
            method: 'POST',
            headers: { 'content-type': 'application/json', origin: deadOrigin },
            body: JSON.stringify({ message: text, signature: await sign(text) }),
          })
        }
        const account = smartAccount()
        const before = await counts()
        const refused = await attempt(smartAccountAddress(account), (text) =>
          signAsSmartAccount(account, text, { deployed: false }),
        )
        expect(refused.status).toBe(503)
        expect(((await refused.json()) as { error: string }).error).toMatch(/chain node is unreachable/)
        expect(refused.headers.get('set-cookie')).toBeNull()
        expect(await counts()).toEqual(before)
        const key = await attempt(alice.address, (text) => alice.signMessage({ message: text }))
        expect(key.status).toBe(200)
      } finally {
        dead.close()
      }
    })
  })

  describe('one-click auth (a CACAO)', () => {
    // The auth request's payload as sign-client's authenticate() writes it, answered as the SDK's wallet does: the
    // text formatMessage gives, signed, and buildAuthObject's CACAO.
    const answer = async (address: `0x${string}`, sign: (text: string) => Promise<`0x${string}`>) => {
      const payload = {
        type: 'caip122',
        chains: [`eip155:${CHAIN_ID}`],
        domain: host,
        aud: origin,
        version: '1',
        nonce: await nonce(),
        iat: new Date().toISOString(),
        statement: 'Sign in to Pairlink',
        resources: [sdk.createEncodedRecap('eip155', 'request', ['personal_sign', 'eth_sendTransaction'])],
      }
      const iss = `did:pkh:eip155:${CHAIN_ID}:${address}`
      const text = sdk.formatMessage(payload, iss)
      return sdk.buildAuthObject(payload, { t: 'eip191', s: await sign(text) }, iss) as {
        p: Record<string, unknown>
      }
    }

    test('default: a CACAO from a key signs in; from a smart account not deployed yet too', async () => {
      const response = await post('/api/verify', {
        cacao: await answer(alice.address, (text) => alice.signMessage({ message: text })),
      })
      expect(response.status).toBe(200)
      expect(await response.json()).toEqual({ address: alice.address, chainId: CHAIN_ID })
      expect(response.headers.get('set-cookie')).toMatch(/^pairlink_session=/)
      const account = smartAccount()
      const address = smartAccountAddress(account)
      const smart = await post('/api/verify', {
        cacao: await answer(address, (text) => signAsSmartAccount(account, text, { deployed: false })),
      })
      expect(smart.status).toBe(200)
      expect(await smart.json()).toEqual({ address, chainId: CHAIN_ID })
    })

    test('error: a CACAO changed after signing, for another site, or not a CACAO is refused and writes nothing', async () => {
      const signed = () => answer(alice.address, (text) => alice.signMessage({ message: text }))
      const changed = await signed()
      changed.p.statement = 'Sign in to Pairlink and more'
      const elsewhere = await signed()
      elsewhere.p.domain = 'evil.example'
      const before = await counts()
      for (const [cacao, status, pattern] of [
        [changed, 401, /not from the message’s address/],
        [elsewhere, 401, /not this site/],
        [{ h: { t: 'eip4361' }, p: {}, s: {} }, 400, /CACAO/],
        [{ ...(await signed()), p: { ...(await signed()).p, iss: 'did:pkh:solana:x:y' } }, 400, /iss/],
      ] as const) {
        const response = await post('/api/verify', { cacao })
        expect(response.status).toBe(status)
        expect(((await response.json()) as { error: string }).error).toMatch(pattern)
      }
      expect(await counts()).toEqual(before)
    })
  })

  const refusals: [
    string,
    () => Promise<{ body: unknown; headers?: Record<string, string> }>,
    number,
    RegExp,
  ][] = [
    [
      'replayed nonce',
      async () => {
        const text = await message()
        const signature = await alice.signMessage({ message: text })
        expect((await post('/api/verify', { message: text, signature })).status).toBe(200)
        return { body: { message: text, signature } }
      },
      401,
      /Nonce is unknown, used or expired/,
    ],
    ['foreign domain', async () => sign(await message({ domain: 'evil.example' })), 401, /not this site/],
    [
      'URI on another site',
      async () => sign(await message({ uri: 'https://evil.example/login' })),
      401,
      /URI/,
    ],
    ['another chain', async () => sign(await message({ chainId: 1 })), 401, /chain 1/],
    [
      'expired message',
      async () => sign(await message({ expirationTime: new Date(Date.now() - 1000) })),
      401,
      /expired/,
    ],
    [
      'not valid yet',
      async () => sign(await message({ notBefore: new Date(Date.now() + 3_600_000) })),
      401,
      /not valid yet/,
    ],
    [
      'issued in the future',
      async () => sign(await message({ issuedAt: new Date(Date.now() + 3_600_000) })),
      401,
      /future/,
    ],
    [
      'signature by another address',
      async () => {
        const text = await message()
        return { body: { message: text, signature: await mallory.signMessage({ message: text }) } }
      },
      401,
      /Signature is not from/,
    ],
    [
      'unknown nonce',
      async () => sign((await message()).replace(/Nonce: \w+/, 'Nonce: abcdefgh12345678')),
      401,
      /Nonce/,
    ],
    [
      'malformed message',
      async () => ({ body: { message: 'hello', signature: `0x${'1'.repeat(130)}` } }),
      400,
      /EIP-4361/,
    ],
    [
      'malformed signature',
      async () => ({ body: { message: await message(), signature: 'nope' } }),
      400,
      /Signature/,
    ],
    ['missing fields', async () => ({ body: { message: await message() } }), 400, /'signature'/],
    ['wrong types', async () => ({ body: { message: 42, signature: [] } }), 400, /'message'/],
    ['not JSON', async () => ({ body: '{"message":' }), 400, /not valid JSON/],
    ['a JSON array', async () => ({ body: '[1]' }), 400, /JSON object/],
    [
      'an oversized body',
      async () => ({ body: { message: 'x'.repeat(20_000), signature: '0x' } }),
      413,
      /larger/,
    ],
    [
      'injection in every field',
      async () => ({ body: { message: "'; DROP TABLE accounts; --", signature: "0x' OR 1=1 --" } }),
      400,
      /EIP-4361/,
    ],
    [
      'another origin (CSRF)',
      async () => ({ ...(await sign(await message())), headers: { origin: 'https://evil.example' } }),
      403,
      /Cross-site/,
    ],
    [
      'no origin at all',
      async () => ({ ...(await sign(await message())), headers: { origin: '' } }),
      403,
      /Cross-site/,
    ],
    [
      'a form post',
      async () => ({ ...(await sign(await message())), headers: { 'content-type': 'text/plain' } }),
      415,
      /JSON/,
    ],
  ]

  async function sign(text: string) {
    return { body: { message: text, signature: await alice.signMessage({ message: text }) } }
  }

  test.each(refusals)('error: %s → clear 4xx, nothing written', async (_, make, status, pattern) => {
    // Alice's account exists, so the marker sign-in below adds exactly one session and one used nonce.
    await signedIn()
    const { body, headers = {} } = await make()
    const before = await counts()
    const hdrs: Record<string, string> = { ...headers }
    if (hdrs.origin === '') delete hdrs.origin
    const response = await fetch(`${origin}/api/verify`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        ...(hdrs.origin === undefined && 'origin' in headers ? {} : { origin }),
        ...hdrs,
      },
      body: typeof body === 'string' ? body : JSON.stringify(body),
    })
    expect(response.status).toBe(status)
    expect(((await response.json()) as { error: string }).error).toMatch(pattern)
    expect(response.headers.get('set-cookie')).toBeNull()
    // Marker: a sign-in after the refusal is counted, so a write by the refused request would have been too.
    await signedIn()
    expect(await counts()).toEqual({
      ...before,
      sessions: before.sessions + 1,
      usedNonces: before.usedNonces + 1,
    })
  })

  test('error: a tampered or expired cookie is not signed in', async () => {
    const cookie = await signedIn()
    const tampered = `${cookie.slice(0, -1)}${cookie.endsWith('A') ? 'B' : 'A'}`
    await expectSignedOut(tampered)
    await expectSignedOut("pairlink_session=' OR '1'='1")
    await db.query('UPDATE sessions SET expires_at = $1', [new Date(Date.now() - 1000)])
    const expired = await expectSignedOut(cookie)
    expect(expired.headers.get('set-cookie')).toContain('Max-Age=0')
    // The routes that need a session still refuse the same cookie.
    expect((await fetch(`${origin}/api/payments`, { headers: { cookie } })).status).toBe(401)
  })

  test('default: payments are recorded from the chain for the signed-in account and listed newest first', async () => {
    const cookie = await signedIn()
    const payment = { txHash: await pay(), to: mallory.address.toLowerCase(), value: '10000000000000000' }
    const created = await post('/api/payments', payment, { cookie })
    expect(created.status).toBe(201)
    expect(await created.json()).toMatchObject({
      from: alice.address,
      to: mallory.address,
      status: 'included',
      value: payment.value,
    })
    // Again by its sender: the same record, no 409; by anyone else: refused.
    expect((await post('/api/payments', payment, { cookie })).status).toBe(200)
    expect((await post('/api/payments', payment, { cookie: await signedIn(mallory) })).status).toBe(403)
    const list = (await (await fetch(`${origin}/api/payments`, { headers: { cookie } })).json()) as {
      payments: unknown[]
    }
    expect(list.payments[0]).toMatchObject({ txHash: payment.txHash, confirmations: 1 })
  })

  test('error: a hash the chain does not know carries a code a client can retry on', async () => {
    const cookie = await signedIn()
    const response = await post('/api/payments', { txHash: `0x${'ce'.repeat(32)}` }, { cookie })
    expect(response.status).toBe(422)
    expect(await response.json()).toMatchObject({ code: 'ERR_PAYMENT_UNKNOWN_TRANSACTION' })
  })

  test.each([
    ['not signed in', {}, { txHash: `0x${'cd'.repeat(32)}` }, 401],
    ['injection in txHash', null, { txHash: "0x' OR 1=1 --" }, 400],
    ['a bad recipient', null, { txHash: `0x${'cd'.repeat(32)}`, to: 'bob' }, 400],
    ['a negative value', null, { txHash: `0x${'cd'.repeat(32)}`, value: '-1' }, 400],
    ['a hash the chain does not know', null, { txHash: `0x${'cd'.repeat(32)}` }, 422],
  ])('error: payment with %s', async (_, headers, body, status) => {
    const cookie = headers ? '' : await signedIn()
    const before = await counts()
    expect((await post('/api/payments', body, cookie ? { cookie } : {})).status).toBe(status)
    // Marker: a valid payment after the refused one is counted, so the refused one would have been too.
    const valid = { txHash: await pay() }
    expect((await post('/api/payments', valid, { cookie: cookie || (await signedIn()) })).status).toBe(201)
    expect((await counts()).payments).toBe(before.payments + 1)
  })

  test('error: a flood of nonce requests is rate limited', async () => {
    const statuses: number[] = []
    for (let i = 0; i < NONCE_BURST + 10; i++) statuses.push((await fetch(`${origin}/api/nonce`)).status)
    expect(statuses).toContain(429)
    // Allowed until the burst is spent (earlier tests spent part of it), refused from then on.
    const first = statuses.indexOf(429)
    expect(statuses.slice(0, first).every((s) => s === 200)).toBe(true)
    expect(statuses.slice(first).every((s) => s === 429)).toBe(true)
    const limited = await fetch(`${origin}/api/nonce`)
    expect(limited.status).toBe(429)
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0)
  })

  test('error: unknown routes are a clear 404', async () => {
    const response = await fetch(`${origin}/api/nope`)
    expect(response.status).toBe(404)
    expect(await response.json()).toEqual({ error: 'No API route GET /api/nope' })
  })
})

describe('createApi rate limits', () => {
  let db: Database
  let server: Server
  let origin: string
  const budget = { burst: 3, perSecond: 0.001 }

  beforeAll(async () => {
    db = await createDatabase()
    server = createServer()
    const site = createSite({ listening: () => server.address() })
    const api = createApi({
      db,
      chain,
      chainId: CHAIN_ID,
      site,
      trustProxy: true,
      limits: { verify: budget, payments: { burst: 4, perSecond: 0.001 }, paymentsPerAccount: budget },
    })
    server.on('request', getRequestListener(api.fetch))
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    origin = `http://127.0.0.1:${(server.address() as { port: number }).port}`
  }, 60_000)

  afterAll(async () => {
    server?.close()
    await db?.close()
  })

  /** A POST from `address` (the trusted proxy's `X-Forwarded-For`). */
  const post = (path: string, body: unknown, address: string, cookie = '') =>
    fetch(`${origin}${path}`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        origin,
        'x-forwarded-for': address,
        ...(cookie ? { cookie } : {}),
      },
      body: JSON.stringify(body),
    })

  async function signIn(address: string) {
    const { nonce } = (await (await fetch(`${origin}/api/nonce`)).json()) as { nonce: string }
    const host = new URL(origin).host
    const message = createSiweMessage({
      address: alice.address,
      chainId: CHAIN_ID,
      domain: host,
      nonce,
      uri: origin,
      version: '1',
      issuedAt: new Date(),
    })
    return post('/api/verify', { message, signature: await alice.signMessage({ message }) }, address)
  }

  test('error: sign-in attempts per address beyond the budget are 429; another address is not affected', async () => {
    const statuses: number[] = []
    for (let i = 0; i < 4; i++)
      statuses.push((await post('/api/verify', { message: 'x', signature: 'y' }, '10.0.0.1')).status)
    expect(statuses).toEqual([400, 400, 400, 429])
    const limited = await signIn('10.0.0.1')
    expect(limited.status).toBe(429)
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0)
    expect((await signIn('10.0.0.2')).status).toBe(200)
  })

  test('error: payments recorded per account and per address beyond their budgets are 429', async () => {
    const cookie = (await signIn('10.0.0.3')).headers.get('set-cookie')!.split(';')[0]!
    const payment = () => ({
      txHash: `0x${randomBytes(32).toString('hex')}`,
      to: mallory.address,
      value: '1',
    })
    // Per account: 3, then refused, even from a new address each time.
    const byAccount: number[] = []
    for (let i = 0; i < 4; i++)
      byAccount.push((await post('/api/payments', payment(), `10.1.0.${i}`, cookie)).status)
    // Whatever the payment logic answers the first three (recorded today), the fourth is the limit's.
    expect(byAccount.slice(0, 3)).not.toContain(429)
    expect(byAccount[3]).toBe(429)
    // Per address: 4 attempts from one address, whoever is signed in (here nobody: 401), then refused.
    const byAddress: number[] = []
    for (let i = 0; i < 5; i++) byAddress.push((await post('/api/payments', payment(), '10.2.0.1')).status)
    expect(byAddress).toEqual([401, 401, 401, 401, 429])
  })
})

describe('createApi behind a trusted https proxy', () => {
  test('behavior: the session cookie is Secure when the page is served over https', async () => {
    const db = await createDatabase()
    const server = createServer()
    const site = createSite({ trustProxy: true, listening: () => server.address() })
    server.on(
      'request',
      getRequestListener(createApi({ db, chain, chainId: CHAIN_ID, site, trustProxy: true }).fetch),
    )
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    const host = `127.0.0.1:${(server.address() as { port: number }).port}`
    const origin = `https://${host}`
    try {
      const headers = { 'x-forwarded-proto': 'https' }
      const { nonce } = (await (await fetch(`http://${host}/api/nonce`, { headers })).json()) as {
        nonce: string
      }
      const message = createSiweMessage({
        address: alice.address,
        chainId: CHAIN_ID,
        domain: host,
        nonce,
        uri: origin,
        version: '1',
        issuedAt: new Date(),
      })
      const response = await fetch(`http://${host}/api/verify`, {
        method: 'POST',
        headers: { ...headers, origin, 'content-type': 'application/json' },
        body: JSON.stringify({ message, signature: await alice.signMessage({ message }) }),
      })
      expect(response.status).toBe(200)
      expect(response.headers.get('set-cookie')).toMatch(/; HttpOnly; SameSite=Lax; Max-Age=\d+; Secure$/)
    } finally {
      server.close()
      await db.close()
    }
  })
})
