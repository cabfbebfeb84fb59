import { waitFor } from '@pairlink/test-kit'
import { ANVIL_ACCOUNT, type Anvil, rpc, startAnvil } from '@pairlink/test-kit/anvil'
import { startPostgres, type TestPostgres } from '@pairlink/test-kit/postgres'
import { createWalletClient, type Hash, http, parseEther } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { foundry } from 'viem/chains'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { createDatabase, type Database } from '../db/createDatabase.js'
import { type ChainReader, createChainReader } from '../payments/chainReader.js'
import { ApiError } from './http.js'
import { listPayments, recordPayment } from './payments.js'

const alice = privateKeyToAccount(ANVIL_ACCOUNT.privateKey)
const mallory = privateKeyToAccount('0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d')
const bob = '0x90F79bf6EB2c4f870365E785982E1f101E93b906'

let anvil: Anvil
let chain: ChainReader

beforeAll(async () => {
  anvil = await startAnvil({ blockTime: 0 })
  chain = createChainReader({ url: anvil.url })
})
afterAll(() => anvil?.stop())

/** Sends a payment; with automine on, waits until anvil has mined it (a moment after it answers). */
async function send(from = alice, to: `0x${string}` = bob, value = parseEther('0.01')) {
  const wallet = createWalletClient({ account: from, chain: foundry, transport: http(anvil.url) })
  const hash = await wallet.sendTransaction({ to, value })
  if (await rpc(anvil.url, 'anvil_getAutomine'))
    await waitFor(() => chain.receipt(hash), { timeout: 10_000, message: 'the payment mined' })
  return hash
}

/** The status and message `fn` is refused with. */
async function refusal(fn: () => Promise<unknown>): Promise<[number, string]> {
  try {
    await fn()
  } catch (error) {
    if (error instanceof ApiError) return [error.status, error.message]
    throw error
  }
  throw new Error('not refused')
}

describe.each(['sqlite', 'postgres'] as const)('recordPayment on %s', (kind) => {
  let db: Database
  let postgres: TestPostgres | undefined

  beforeAll(async () => {
    postgres = kind === 'postgres' ? await startPostgres() : undefined
    db = await createDatabase({ url: postgres?.url })
    for (const who of [alice, mallory])
      await db.query('INSERT INTO accounts (address) VALUES ($1)', [who.address])
  }, 60_000)
  afterAll(async () => {
    await db?.close()
    await postgres?.stop()
  })

  const count = async () =>
    Number((await db.query<{ n: string }>('SELECT count(*) AS n FROM payments'))[0]?.n)
  /** Proves a refused call wrote nothing: a valid recording right after it is counted, so it would have been too. */
  async function expectNothingWritten(before: number) {
    const marker = await send()
    expect((await recordPayment(db, chain, alice.address, { txHash: marker })).created).toBe(true)
    expect(await count()).toBe(before + 1)
  }

  test('default: sender, recipient, value and chain come from the chain, not from the client', async () => {
    const hash = await send(alice, bob, parseEther('0.02'))
    const { payment, created } = await recordPayment(db, chain, alice.address, {
      txHash: hash.toUpperCase().replace('0X', '0x'),
    })
    expect(created).toBe(true)
    expect(payment).toMatchObject({
      txHash: hash,
      chainId: 31337,
      from: alice.address,
      to: bob,
      value: parseEther('0.02').toString(),
      status: 'included',
      confirmations: 1,
      final: false,
    })
    expect(payment.blockNumber).toBe(Number(await chain.blockNumber()))
    // The sender may record it again: the existing record, no 409.
    const again = await recordPayment(db, chain, alice.address, {
      txHash: hash,
      to: bob.toLowerCase(),
      value: parseEther('0.02').toString(),
    })
    expect(again).toMatchObject({ created: false, payment: { txHash: hash, value: payment.value } })
    expect((await listPayments(db, alice.address))[0]).toMatchObject({ txHash: hash, to: bob })
  })

  test("error: another account's transaction is refused and the sender can still record it", async () => {
    const hash = await send(alice)
    const before = await count()
    expect(await refusal(() => recordPayment(db, chain, mallory.address, { txHash: hash }))).toEqual([
      403,
      'This transaction was not sent by the signed-in account',
    ])
    expect(await count()).toBe(before)
    expect((await recordPayment(db, chain, alice.address, { txHash: hash })).created).toBe(true)
    expect(await listPayments(db, mallory.address)).toEqual([])
  })

  test.each([
    [
      'another recipient',
      { to: mallory.address },
      'This transaction pays another recipient than the one asked',
    ],
    ['another amount', { value: '1' }, 'This transaction pays another amount than the one asked'],
  ])('error: a checkout that was asked %s is refused', async (_, asked, message) => {
    const hash = await send()
    const before = await count()
    expect(await refusal(() => recordPayment(db, chain, alice.address, { txHash: hash, ...asked }))).toEqual([
      422,
      message,
    ])
    await expectNothingWritten(before)
  })

  test.each([
    ['a hash the chain does not know', { txHash: `0x${'ab'.repeat(32)}` }, 422],
    ['no hash', {}, 400],
    ['injection in txHash', { txHash: "0x' OR 1=1 --" }, 400],
    ['a short hash', { txHash: '0x1234' }, 400],
    ['a hash that is not a string', { txHash: 12 }, 400],
    ['a bad recipient', { txHash: `0x${'cd'.repeat(32)}`, to: 'bob' }, 400],
    ['a negative value', { txHash: `0x${'cd'.repeat(32)}`, value: '-1' }, 400],
    ['a value too long', { txHash: `0x${'cd'.repeat(32)}`, value: '9'.repeat(79) }, 400],
  ])('error: %s is a clear 4xx and writes nothing', async (_, body, status) => {
    const before = await count()
    const [code, message] = await refusal(() => recordPayment(db, chain, alice.address, body))
    expect(code).toBe(status)
    expect(message.length).toBeGreaterThan(10)
    await expectNothingWritten(before)
  })

  test('error: pending payments per account are capped', async () => {
    await rpc(anvil.url, 'evm_setAutomine', [false])
    try {
      const hashes: Hash[] = []
      for (let i = 0; i < 3; i++) hashes.push(await send())
      const options = { maxPending: 2 }
      for (const hash of hashes.slice(0, 2))
        expect(
          (await recordPayment(db, chain, alice.address, { txHash: hash }, options)).payment.status,
        ).toBe('pending')
      const before = await count()
      const [status, message] = await refusal(() =>
        recordPayment(db, chain, alice.address, { txHash: hashes[2]! }, options),
      )
      expect(status).toBe(429)
      expect(message).toMatch(/Too many payments waiting for a block \(2\)/)
      expect(await count()).toBe(before)
      // Once mined they wait no more: the same hash is accepted.
      await rpc(anvil.url, 'evm_mine')
      expect((await recordPayment(db, chain, alice.address, { txHash: hashes[2]! }, options)).created).toBe(
        true,
      )
    } finally {
      await rpc(anvil.url, 'evm_setAutomine', [true])
    }
  })
})
