import { ANVIL_ACCOUNT, type Anvil, startAnvil } from '@pairlink/test-kit/anvil'
import { createWalletClient, http, parseEther } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { foundry } from 'viem/chains'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { createDatabase, type Database } from '../db/createDatabase.js'
import { createPaymentFollower } from './createPaymentFollower.js'

const alice = privateKeyToAccount(ANVIL_ACCOUNT.privateKey)
const bob = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8'

let anvil: Anvil
let db: Database

beforeAll(async () => {
  anvil = await startAnvil()
  db = await createDatabase()
  await db.query('INSERT INTO accounts (address) VALUES ($1)', [alice.address])
})

afterAll(async () => {
  await db?.close()
  await anvil?.stop()
})

const insert = (txHash: string) =>
  db.query(
    "INSERT INTO payments (tx_hash, chain_id, from_address, to_address, value_wei, status) VALUES ($1, 31337, $2, $3, '1', 'pending')",
    [txHash, alice.address, bob],
  )
const statusOf = async (txHash: string) =>
  (
    await db.query<{ status: string; block_number: string | null; confirmations: number }>(
      'SELECT status, block_number, confirmations FROM payments WHERE tx_hash = $1',
      [txHash],
    )
  )[0]!

describe('createPaymentFollower', () => {
  test('default: a pending payment is followed to confirmation without any client', async () => {
    const wallet = createWalletClient({ account: alice, chain: foundry, transport: http(anvil.url) })
    const hash = await wallet.sendTransaction({ to: bob, value: parseEther('0.01') })
    await insert(hash)
    const unknown = `0x${'ee'.repeat(32)}`
    await insert(unknown)

    const follower = createPaymentFollower({
      db,
      rpcUrl: anvil.url,
      chainId: 31337,
      confirmations: 3,
      pollingInterval: 200,
    })
    follower.start()
    const seen = new Set<string>()
    await expect
      .poll(
        async () => {
          const row = await statusOf(hash)
          seen.add(row.status)
          return row.status
        },
        { timeout: 15_000, interval: 100 },
      )
      .toBe('confirmed')
    await follower.stop()

    const row = await statusOf(hash)
    expect(Number(row.block_number)).toBeGreaterThan(0)
    expect(row.confirmations).toBeGreaterThanOrEqual(3)
    expect(seen.has('included') || seen.has('pending')).toBe(true)
    expect((await statusOf(unknown)).status).toBe('pending')
  })

  test('behavior: an unreachable node is reported and nothing is changed', async () => {
    await insert(`0x${'dd'.repeat(32)}`)
    expect((await statusOf(`0x${'dd'.repeat(32)}`)).status).toBe('pending')
    const errors: Error[] = []
    const follower = createPaymentFollower({
      db,
      rpcUrl: 'http://127.0.0.1:1',
      chainId: 31337,
      pollingInterval: 50,
      onError: (error) => errors.push(error),
    })
    follower.start()
    await expect.poll(() => errors.length, { timeout: 15_000 }).toBeGreaterThan(0)
    await follower.stop()
    expect((await statusOf(`0x${'dd'.repeat(32)}`)).status).toBe('pending')
  })
})
