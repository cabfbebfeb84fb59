import { createServer, type Server } from 'node:http'
import { waitFor } from '@pairlink/test-kit'
import { ANVIL_ACCOUNT, type Anvil, rpc, startAnvil } from '@pairlink/test-kit/anvil'
import { startPostgres, type TestPostgres } from '@pairlink/test-kit/postgres'
import { createWalletClient, type Hash, http, parseEther } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { foundry } from 'viem/chains'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { createDatabase, type Database } from '../db/createDatabase.js'
import { type ChainReader, createChainReader } from './chainReader.js'
import { createPaymentFollower } from './createPaymentFollower.js'

const alice = privateKeyToAccount(ANVIL_ACCOUNT.privateKey)
const bob = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8'

let anvil: Anvil
let db: Database

beforeAll(async () => {
  // Blocks only when a test mines them (and one per transaction): every depth below is exact.
  anvil = await startAnvil({ blockTime: 0 })
})

afterAll(async () => {
  await anvil?.stop()
})

const wallet = () => createWalletClient({ account: alice, chain: foundry, transport: http(anvil.url) })
/** Sends a payment; with automine on, waits until anvil has mined it (a moment after it answers). */
async function send() {
  const hash = await wallet().sendTransaction({ to: bob, value: parseEther('0.01') })
  if (await rpc(anvil.url, 'anvil_getAutomine'))
    await waitFor(() => rpc(anvil.url, 'eth_getTransactionReceipt', [hash]), {
      timeout: 10_000,
      message: 'mined',
    })
  return hash
}
const mine = (blocks: number) => rpc(anvil.url, 'anvil_mine', [`0x${blocks.toString(16)}`])
// The statement works on the schema of every version, so these tests run against older followers too.
const insert = (target: Database, txHash: string) =>
  target.query(
    "INSERT INTO payments (tx_hash, chain_id, from_address, to_address, value_wei, status) VALUES ($1, 31337, $2, $3, '1', 'pending')",
    [txHash, alice.address, bob],
  )
type State = {
  status: string
  block_number: string | null
  confirmations: number
  final?: boolean
  reorgs?: number
}
const stateOf = async (txHash: string, from = db) =>
  (await from.query<State>('SELECT * FROM payments WHERE tx_hash = $1', [txHash]))[0]!

/** A chain reader that counts its calls per hash. */
function counting(inner: ChainReader) {
  const calls = new Map<string, number>()
  const count = <result>(hash: string, read: (hash: Hash) => Promise<result>) => {
    calls.set(hash, (calls.get(hash) ?? 0) + 1)
    return read(hash as Hash)
  }
  const reader: ChainReader = {
    ...inner,
    receipt: (hash) => count(hash, inner.receipt),
    transaction: (hash) => count(hash, inner.transaction),
  }
  return { reader, calls: (hash: string) => calls.get(hash) ?? 0 }
}

describe.each(['sqlite', 'postgres'] as const)('createPaymentFollower on %s', (kind) => {
  let postgres: TestPostgres | undefined

  beforeAll(async () => {
    postgres = kind === 'postgres' ? await startPostgres() : undefined
    db = await createDatabase({ url: postgres?.url })
    await db.query('INSERT INTO accounts (address) VALUES ($1)', [alice.address])
  }, 60_000)

  afterAll(async () => {
    await db?.close()
    await postgres?.stop()
  })

  test('default: a payment is followed to confirmation and on to final, without any client', async () => {
    const hash = await send()
    await insert(db, hash)
    const follower = createPaymentFollower({
      db,
      rpcUrl: anvil.url,
      chainId: 31337,
      confirmations: 3,
      finality: 5,
    })
    await follower.pass()
    expect(await stateOf(hash)).toMatchObject({ status: 'included', confirmations: 1, final: false })
    await mine(2)
    await follower.pass()
    expect(await stateOf(hash)).toMatchObject({ status: 'confirmed', confirmations: 3, final: false })
    // Confirmed is re-checked: the count goes on until final, then stops.
    await mine(3)
    await follower.pass()
    expect(await stateOf(hash)).toMatchObject({ status: 'confirmed', confirmations: 6, final: true })
    await mine(1)
    await follower.pass()
    expect((await stateOf(hash)).confirmations).toBe(6)
  })

  test('behavior: a confirmed payment whose block is reorganised away goes back, then is re-included', async () => {
    const raw = await wallet().signTransaction(
      await wallet().prepareTransactionRequest({ to: bob, value: 1n }),
    )
    const hash = (await rpc(anvil.url, 'eth_sendRawTransaction', [raw])) as Hash
    await waitFor(() => rpc(anvil.url, 'eth_getTransactionReceipt', [hash]), {
      timeout: 10_000,
      message: 'mined',
    })
    await insert(db, hash)
    const follower = createPaymentFollower({
      db,
      rpcUrl: anvil.url,
      chainId: 31337,
      confirmations: 2,
      finality: 10,
    })
    await mine(2)
    await follower.pass()
    const confirmed = await stateOf(hash)
    expect(confirmed).toMatchObject({ status: 'confirmed', confirmations: 3, reorgs: 0 })

    // The 3 newest blocks, the payment's among them, are replaced by 3 empty ones: the node forgets it.
    await rpc(anvil.url, 'anvil_reorg', [3, []])
    expect(await rpc(anvil.url, 'eth_getTransactionReceipt', [hash])).toBeNull()
    await follower.pass()
    expect(await stateOf(hash)).toMatchObject({
      status: 'reorged',
      block_number: null,
      confirmations: 0,
      reorgs: 1,
    })

    // Another reorg puts the same transaction into a new block: included again, counting from there.
    await rpc(anvil.url, 'anvil_reorg', [1, [[raw, 0]]])
    await follower.pass()
    const again = await stateOf(hash)
    expect(again).toMatchObject({ status: 'included', confirmations: 1, reorgs: 1 })
    expect(Number(again.block_number)).toBe(Number(await rpc(anvil.url, 'eth_blockNumber')))
  })

  test('behavior: a hash not mined within dropAfterMs is dropped and costs no more calls', async () => {
    await rpc(anvil.url, 'evm_setAutomine', [false])
    try {
      const hash = await send()
      await insert(db, hash)
      const { reader, calls } = counting(createChainReader({ url: anvil.url }))
      const patient = createPaymentFollower({ db, chain: reader, chainId: 31337, dropAfterMs: 3_600_000 })
      await patient.pass()
      expect((await stateOf(hash)).status).toBe('pending')
      expect(calls(hash)).toBeGreaterThan(0)

      const strict = createPaymentFollower({ db, chain: reader, chainId: 31337, dropAfterMs: 0 })
      await strict.pass()
      expect((await stateOf(hash)).status).toBe('dropped')
      const spent = calls(hash)
      // A marker payment proves the next pass does read the chain; the dropped one is not among its reads.
      const marker = `0x${'ce'.repeat(32)}`
      await insert(db, marker)
      await strict.pass()
      expect(calls(marker)).toBeGreaterThan(0)
      expect(calls(hash)).toBe(spent)
    } finally {
      await rpc(anvil.url, 'anvil_dropAllTransactions')
      await rpc(anvil.url, 'evm_setAutomine', [true])
    }
  })

  test('behavior: an unreachable node is reported and nothing is changed', async () => {
    const hash = `0x${'dd'.repeat(32)}`
    await insert(db, hash)
    const errors: Error[] = []
    const follower = createPaymentFollower({
      db,
      rpcUrl: 'http://127.0.0.1:1',
      chainId: 31337,
      pollingInterval: 50,
      onError: (error) => errors.push(error),
    })
    follower.start()
    await waitFor(() => errors.length > 0, { timeout: 15_000, message: 'an error reported' })
    await follower.stop()
    expect((await stateOf(hash)).status).toBe('pending')
  })
})

describe('createPaymentFollower: two servers on one PostgreSQL', () => {
  let postgres: TestPostgres
  let one: Database
  let two: Database
  let slow: Server
  let slowUrl: string

  beforeAll(async () => {
    postgres = await startPostgres()
    one = await createDatabase({ url: postgres.url })
    two = await createDatabase({ url: postgres.url })
    await one.query('INSERT INTO accounts (address) VALUES ($1)', [alice.address])
    // Every update of a payment, as the database saw it: a step backwards cannot hide between two polls.
    await one.query(
      'CREATE TABLE payment_log (id serial PRIMARY KEY, tx_hash text, old_status text, new_status text, old_confirmations integer, new_confirmations integer)',
    )
    await one.query(`CREATE FUNCTION log_payment() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN
      INSERT INTO payment_log (tx_hash, old_status, new_status, old_confirmations, new_confirmations)
      VALUES (NEW.tx_hash, OLD.status, NEW.status, OLD.confirmations, NEW.confirmations); RETURN NEW; END $$`)
    await one.query(
      'CREATE TRIGGER payment_log AFTER UPDATE ON payments FOR EACH ROW EXECUTE FUNCTION log_payment()',
    )
    // The second server's node answers late (0–40 ms): its readings are older than the first's when it writes.
    slow = createServer((request, response) => {
      const chunks: Buffer[] = []
      request.on('data', (chunk: Buffer) => chunks.push(chunk))
      request.on('end', () => {
        setTimeout(async () => {
          const answer = await fetch(anvil.url, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: Buffer.concat(chunks),
          })
          response.writeHead(answer.status, { 'content-type': 'application/json' }).end(await answer.text())
        }, Math.random() * 40)
      })
    })
    await new Promise<void>((resolve) => slow.listen(0, '127.0.0.1', resolve))
    slowUrl = `http://127.0.0.1:${(slow.address() as { port: number }).port}`
  }, 60_000)

  afterAll(async () => {
    slow?.close()
    await one?.close()
    await two?.close()
    await postgres?.stop()
  })

  test('behavior: racing followers never step a payment backwards', async () => {
    const hashes: string[] = []
    for (let i = 0; i < 6; i++) hashes.push(await send())
    for (const hash of hashes) await insert(one, hash)
    const depths = { confirmations: 30, finality: 40, pollingInterval: 5 }
    const first = createPaymentFollower({ db: one, rpcUrl: anvil.url, chainId: 31337, ...depths })
    const second = createPaymentFollower({ db: two, rpcUrl: slowUrl, chainId: 31337, ...depths })
    first.start()
    second.start()
    try {
      await waitFor(
        async () => {
          await mine(1)
          const rows = await one.query<{ status: string; confirmations: number }>(
            'SELECT status, confirmations FROM payments',
          )
          return rows.length === hashes.length && rows.every((row) => row.status === 'confirmed')
        },
        { timeout: 60_000, interval: 25, message: 'every payment confirmed' },
      )
    } finally {
      await first.stop()
      await second.stop()
    }
    const rank = (status: string) => ({ pending: 0, included: 1, confirmed: 2 })[status] ?? 3
    const log = await one.query<{
      old_status: string
      new_status: string
      old_confirmations: number
      new_confirmations: number
    }>('SELECT * FROM payment_log ORDER BY id')
    expect(log.length).toBeGreaterThan(hashes.length * 10)
    const backwards = log.filter(
      (step) =>
        rank(step.new_status) < rank(step.old_status) || step.new_confirmations < step.old_confirmations,
    )
    expect(backwards).toEqual([])
  }, 90_000)
})
