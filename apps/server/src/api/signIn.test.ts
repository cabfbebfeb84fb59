import { readFileSync } from 'node:fs'
import { ANVIL_ACCOUNT } from '@pairlink/test-kit/anvil'
import { startPostgres, type TestPostgres } from '@pairlink/test-kit/postgres'
import { parseSignature, serializeCompactSignature, signatureToCompactSignature } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { createSiweMessage, generateSiweNonce } from 'viem/siwe'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { createDatabase, type Database } from '../db/createDatabase.js'
import { purgeExpired, SESSION_TTL_SECONDS } from './sessions.js'
import { issueNonce, SignInError, type SignInExpectations, signIn } from './signIn.js'

// anvil's first two dev accounts.
const alice = privateKeyToAccount(ANVIL_ACCOUNT.privateKey)
const mallory = privateKeyToAccount('0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d')
const SITE: SignInExpectations = { domain: '127.0.0.1:5173', origin: 'http://127.0.0.1:5173', chainId: 31337 }

const compact = (signature: `0x${string}`) =>
  serializeCompactSignature(signatureToCompactSignature(parseSignature(signature)))

describe.each(['sqlite', 'postgres'] as const)('signIn on %s', (kind) => {
  let db: Database
  let postgres: TestPostgres | undefined

  beforeAll(async () => {
    postgres = kind === 'postgres' ? await startPostgres() : undefined
    db = await createDatabase({ url: postgres?.url })
  }, 60_000)

  afterAll(async () => {
    await db?.close()
    await postgres?.stop()
  })

  const nonce = async () => (await issueNonce(db, generateSiweNonce())).nonce
  /** A valid message for SITE; `edit` changes its text after it is built (viem refuses to build some of them). */
  const message = async (edit: (text: string) => string = (t) => t, overrides = {}) =>
    edit(
      createSiweMessage({
        address: alice.address,
        chainId: SITE.chainId,
        domain: SITE.domain,
        uri: SITE.origin,
        nonce: await nonce(),
        version: '1',
        issuedAt: new Date(),
        statement: 'Sign in to Pairlink.',
        ...overrides,
      }),
    )
  const counts = async () => {
    const [row] = await db.query<{ a: string; s: string; u: string }>(
      `SELECT (SELECT count(*) FROM accounts) AS a, (SELECT count(*) FROM sessions) AS s,
              (SELECT count(*) FROM nonces WHERE used_at IS NOT NULL) AS u`,
    )
    return { accounts: Number(row?.a), sessions: Number(row?.s), usedNonces: Number(row?.u) }
  }
  const refusal = async (run: () => Promise<unknown>) => {
    try {
      await run()
    } catch (error) {
      return error
    }
    throw new Error('expected a refusal')
  }

  test('default: a valid message opens a session for its checksummed address', async () => {
    const text = await message()
    const before = await counts()
    const result = await signIn(
      db,
      { message: text, signature: await alice.signMessage({ message: text }) },
      SITE,
    )
    expect(result).toMatchObject({ address: alice.address, chainId: SITE.chainId })
    expect(result.token).toMatch(/^[\w-]{43}$/)
    expect((await counts()).sessions).toBe(before.sessions + 1)
  })

  test('behavior: an EIP-2098 compact (64-byte) signature is accepted', async () => {
    const text = await message()
    const signature = compact(await alice.signMessage({ message: text }))
    expect(signature).toHaveLength(2 + 128)
    expect((await signIn(db, { message: text, signature }, SITE)).address).toBe(alice.address)
  })

  test('behavior: an IPv6 host is a valid domain', async () => {
    const site = { ...SITE, domain: '[::1]:8080', origin: 'http://[::1]:8080' }
    const text = await message((t) => t.replace(SITE.domain, site.domain), { uri: `${site.origin}/login` })
    expect(text.split('\n')[0]).toBe('[::1]:8080 wants you to sign in with your Ethereum account:')
    const signature = await alice.signMessage({ message: text })
    expect((await signIn(db, { message: text, signature }, site)).address).toBe(alice.address)
  })

  test('behavior: a message naming the site’s own scheme is accepted', async () => {
    const text = await message(undefined, { scheme: 'http' })
    expect(text.startsWith(`http://${SITE.domain} wants you`)).toBe(true)
    const signature = await alice.signMessage({ message: text })
    expect((await signIn(db, { message: text, signature }, SITE)).address).toBe(alice.address)
  })

  // [title, how the message (or signature) differs from a valid one, status, code]; every one is signed by alice.
  const cases: [string, number, string, (text: string) => string][] = [
    ['a valid message (baseline)', 200, 'none', (t) => t],
    [
      'a lower-case address',
      400,
      'ERR_SIWE_MESSAGE_INVALID',
      (t) => t.replace(alice.address, alice.address.toLowerCase()),
    ],
    [
      'a statement with a line break',
      400,
      'ERR_SIWE_MESSAGE_INVALID',
      (t) => t.replace('Sign in to', 'Sign in\nto'),
    ],
    [
      '31 February',
      400,
      'ERR_SIWE_MESSAGE_INVALID',
      (t) => t.replace(/Issued At: .*/, `Issued At: ${new Date().getUTCFullYear() - 1}-02-31T00:00:00Z`),
    ],
    [
      'fields out of order',
      400,
      'ERR_SIWE_MESSAGE_INVALID',
      (t) => `${t}\nRequest ID: 1\nNot Before: ${new Date(Date.now() - 60_000).toISOString()}`,
    ],
    [
      'a malformed resource',
      400,
      'ERR_SIWE_MESSAGE_INVALID',
      (t) => `${t}\nResources:\n- https://exa mple.com/`,
    ],
    ['another domain', 401, 'ERR_SIGN_IN_WRONG_SITE', (t) => t.replace(SITE.domain, 'evil.example')],
    [
      'another scheme',
      401,
      'ERR_SIGN_IN_WRONG_SITE',
      (t) => t.replace(SITE.domain, `https://${SITE.domain}`),
    ],
    [
      'a URI on another origin',
      401,
      'ERR_SIGN_IN_WRONG_SITE',
      (t) => t.replace(`URI: ${SITE.origin}`, 'URI: https://evil.example'),
    ],
    ['another chain', 401, 'ERR_SIGN_IN_WRONG_CHAIN', (t) => t.replace('Chain ID: 31337', 'Chain ID: 1')],
    [
      'an expired message',
      401,
      'ERR_SIGN_IN_NOT_NOW',
      (t) => `${t}\nExpiration Time: ${new Date(Date.now() - 1000).toISOString()}`,
    ],
  ]

  test.each(cases)('error: %s → %i %s, nothing written', async (_, status, code, edit) => {
    const text = await message(edit)
    const signature = await alice.signMessage({ message: text })
    const before = await counts()
    if (status === 200) {
      await signIn(db, { message: text, signature }, SITE)
      expect(await counts()).toEqual({
        ...before,
        sessions: before.sessions + 1,
        usedNonces: before.usedNonces + 1,
      })
      return
    }
    const error = await refusal(() => signIn(db, { message: text, signature }, SITE))
    expect(error).toBeInstanceOf(SignInError)
    expect(error).toMatchObject({ status, code })
    expect(await counts()).toEqual(before)
  })

  test('error: a signature by another key, 65-byte or compact, is refused', async () => {
    const text = await message()
    const signature = await mallory.signMessage({ message: text })
    for (const candidate of [signature, compact(signature)]) {
      const error = await refusal(() => signIn(db, { message: text, signature: candidate }, SITE))
      expect(error).toMatchObject({ status: 401, code: 'ERR_SIGN_IN_SIGNATURE' })
    }
    // The nonce was not spent: the real signer can still use it.
    const own = await alice.signMessage({ message: text })
    expect((await signIn(db, { message: text, signature: own }, SITE)).address).toBe(alice.address)
  })

  test.each([
    ['63 bytes', (s: string) => s.slice(0, 2 + 126)],
    ['66 bytes', (s: string) => `${s}00`],
    ['not hex', (s: string) => s.replace('0x', 'zz')],
  ])('error: a signature of %s is a 400', async (_, edit) => {
    const text = await message()
    const signature = edit(await alice.signMessage({ message: text }))
    const error = await refusal(() => signIn(db, { message: text, signature }, SITE))
    expect(error).toMatchObject({ status: 400, code: 'ERR_SIGN_IN_SIGNATURE' })
  })

  test('behavior: the site comes from the parameters, never from the message', async () => {
    // One signed message, valid for the site it names; a server configured as another site refuses it.
    const text = await message()
    const signature = await alice.signMessage({ message: text })
    for (const other of [
      { ...SITE, domain: 'pairlink.example', origin: 'https://pairlink.example' },
      { ...SITE, origin: `https://${SITE.domain}` },
    ]) {
      const error = await refusal(() => signIn(db, { message: text, signature }, other))
      expect(error).toMatchObject({ status: 401, code: 'ERR_SIGN_IN_WRONG_SITE' })
    }
    expect((await signIn(db, { message: text, signature }, SITE)).address).toBe(alice.address)
  })

  test('behavior: purgeExpired deletes expired nonces, then expired sessions, and nothing alive', async () => {
    await db.query('DELETE FROM nonces')
    await db.query('DELETE FROM sessions')
    const text = await message()
    await signIn(db, { message: text, signature: await alice.signMessage({ message: text }) }, SITE)
    await nonce()
    const rows = async () => {
      const [row] = await db.query<{ n: string; s: string }>(
        'SELECT (SELECT count(*) FROM nonces) AS n, (SELECT count(*) FROM sessions) AS s',
      )
      return { nonces: Number(row?.n), sessions: Number(row?.s) }
    }
    expect(await rows()).toEqual({ nonces: 2, sessions: 1 })

    expect(await purgeExpired(db)).toEqual({ nonces: 0, sessions: 0 })
    // Past the nonces' ten minutes, within the session's week.
    expect(await purgeExpired(db, new Date(Date.now() + 3600_000))).toEqual({ nonces: 2, sessions: 0 })
    expect(await rows()).toEqual({ nonces: 0, sessions: 1 })
    expect(await purgeExpired(db, new Date(Date.now() + (SESSION_TTL_SECONDS + 60) * 1000))).toEqual({
      nonces: 0,
      sessions: 1,
    })
    expect(await rows()).toEqual({ nonces: 0, sessions: 0 })
  })
})

test('behavior: every sign-in error code has its heading in docs/errors.md', () => {
  const docs = readFileSync(new URL('../../../../docs/errors.md', import.meta.url), 'utf8')
  const source = readFileSync(new URL('./signIn.ts', import.meta.url), 'utf8')
  const codes = new Set(source.match(/'ERR_[A-Z_]+'/g)?.map((code) => code.slice(1, -1)))
  expect(codes.size).toBeGreaterThanOrEqual(6)
  for (const code of codes) expect(docs).toContain(`\n## ${code}\n`)
})
