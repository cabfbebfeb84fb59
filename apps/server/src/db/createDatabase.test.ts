import { spawnSync } from 'node:child_process'
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { startPostgres, type TestPostgres } from '@pairlink/test-kit/postgres'
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest'
import { createDatabase, type Database, DatabaseInUseError, EMBEDDED_FILE } from './createDatabase.js'
import { runMigrations } from './migrate.js'
import { openSqlite } from './sqlite.js'

const dirs: string[] = []
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true })
})
const dataDir = () => {
  const dir = mkdtempSync(join(tmpdir(), 'pairlink-db-'))
  dirs.push(dir)
  return join(dir, 'db')
}

describe('the embedded database folder', () => {
  test('error: a second open while the first holds it is refused, naming the holder; after close it opens', async () => {
    const dir = dataDir()
    const first = await createDatabase({ dataDir: dir })
    const refused = await createDatabase({ dataDir: dir }).catch((error: unknown) => error)
    expect(refused).toBeInstanceOf(DatabaseInUseError)
    expect((refused as Error).message).toContain(`in use by another Pairlink server (pid ${process.pid})`)
    // The holder still works.
    expect(await first.query<{ one: number }>('SELECT 1 AS one')).toEqual([{ one: 1 }])
    await first.close()
    expect(existsSync(join(dir, 'pairlink.lock'))).toBe(false)
    const second = await createDatabase({ dataDir: dir })
    expect(await second.query<{ one: number }>('SELECT 1 AS one')).toEqual([{ one: 1 }])
    await second.close()
  })

  test('behavior: the lock is kept inside the folder: nothing is written beside it (DATA_DIR=/data, a volume at the root)', async () => {
    const dir = dataDir()
    const parent = join(dir, '..')
    const db = await createDatabase({ dataDir: dir })
    expect(readdirSync(parent)).toEqual(['db'])
    expect(existsSync(join(dir, 'pairlink.lock'))).toBe(true)
    await db.close()
  })

  test('behavior: a lock left by a process that is gone (a crash) is taken over', async () => {
    const dir = dataDir()
    const gone = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], {
      encoding: 'utf8',
    })
    mkdirSync(dir, { recursive: true })
    writeFileSync(join(dir, 'pairlink.lock'), gone.stdout)
    const db = await createDatabase({ dataDir: dir })
    expect(await db.query<{ one: number }>('SELECT 1 AS one')).toEqual([{ one: 1 }])
    await db.close()
  })

  test('behavior: a lock naming this pid that this process did not take (a container restarted as pid 1) is taken over', async () => {
    const dir = dataDir()
    mkdirSync(dir, { recursive: true })
    writeFileSync(join(dir, 'pairlink.lock'), String(process.pid))
    const db = await createDatabase({ dataDir: dir })
    expect(await db.query<{ one: number }>('SELECT 1 AS one')).toEqual([{ one: 1 }])
    await db.close()
    expect(existsSync(join(dir, 'pairlink.lock'))).toBe(false)
  })
})

describe('the embedded database', () => {
  test('default: it is SQLite, one file in the data folder, and keeps its rows and schema across a restart', async () => {
    const dir = dataDir()
    const first = await createDatabase({ dataDir: dir })
    expect(first.kind).toBe('sqlite')
    expect(existsSync(join(dir, EMBEDDED_FILE))).toBe(true)
    await first.query('INSERT INTO accounts (address) VALUES ($1)', [ALICE])
    await first.close()

    const second = await createDatabase({ dataDir: dir })
    expect(await second.query('SELECT address FROM accounts')).toEqual([{ address: ALICE }])
    // Migrations ran once: the second start found them applied.
    expect(await second.query('SELECT version FROM schema_migrations ORDER BY version')).toEqual([
      { version: 1 },
      { version: 2 },
    ])
    expect(await second.query<{ journal_mode: string }>('PRAGMA journal_mode')).toEqual([
      { journal_mode: 'wal' },
    ])
    await second.close()
  })

  test('behavior: migration 002 rebuilds the payments table with the rows recorded under 001', async () => {
    const migrations = fileURLToPath(new URL('../../migrations/sqlite/', import.meta.url))
    const only001 = `${dataDir()}/`
    mkdirSync(only001)
    copyFileSync(`${migrations}001_init.sql`, `${only001}001_init.sql`)
    const db = openSqlite(':memory:')
    try {
      expect(await runMigrations(db, only001)).toEqual([1])
      await db.query('INSERT INTO accounts (address) VALUES ($1)', [ALICE])
      await db.query(
        `INSERT INTO payments (tx_hash, chain_id, from_address, to_address, value_wei, status, block_number,
           confirmations, created_at) VALUES ($1, 1, $2, $3, $4, 'confirmed', 7, 3, $5)`,
        [HASH, ALICE, BOB, WEI, AT],
      )
      expect(await runMigrations(db)).toEqual([2])
      expect(await db.query('SELECT * FROM payments')).toEqual([
        expect.objectContaining({
          tx_hash: HASH,
          value_wei: WEI,
          status: 'confirmed',
          block_number: '7',
          created_at: AT,
          final: false,
          epoch: 0,
        }),
      ])
      // The new states are allowed, the constraint still refuses others.
      await db.query("UPDATE payments SET status = 'reorged'")
      await expect(db.query("UPDATE payments SET status = 'lost'")).rejects.toThrow(/CHECK constraint/)
    } finally {
      await db.close()
    }
  })

  test('error: a parameter SQLite cannot hold is a clear error, and the database goes on', async () => {
    const db = await createDatabase()
    try {
      await expect(db.query('SELECT $1 AS x', [{ not: 'a value' }])).rejects.toThrow(
        'SQL parameter $1 must be a string, number, bigint, boolean, Date, bytes or null, got object',
      )
      expect(await db.query('SELECT $1 AS x, $2 AS y, $1 AS z', [true, null])).toEqual([
        { x: 1, y: null, z: 1 },
      ])
    } finally {
      await db.close()
    }
  })
})

const ALICE = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266'
const BOB = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8'
const HASH = `0x${'ab'.repeat(32)}`
/** 2^256 - 1: far past 2^64, where SQLite's numbers end. */
const WEI = (2n ** 256n - 1n).toString()
const AT = new Date('2026-03-04T05:06:07.089Z')

describe.each(['sqlite', 'postgres'] as const)('one schema and one shape on %s', (kind) => {
  let db: Database
  let postgres: TestPostgres | undefined

  beforeAll(async () => {
    postgres = kind === 'postgres' ? await startPostgres() : undefined
    db = await createDatabase({ url: postgres?.url })
    await db.query('INSERT INTO accounts (address, first_seen, last_sign_in) VALUES ($1, $2, $2)', [
      ALICE,
      AT,
    ])
  }, 60_000)

  afterAll(async () => {
    await db?.close()
    await postgres?.stop()
  })

  test('default: wei past 2^64, timestamps, booleans, bigints and counts read back as the same JS values', async () => {
    const [inserted] = await db.query(
      `INSERT INTO payments (tx_hash, chain_id, from_address, to_address, value_wei, status, block_number,
         block_hash, confirmations, final, created_at, updated_at, confirmed_at, pending_since)
       VALUES ($1, 31337, $2, $3, $4, 'confirmed', $5, NULL, 70, $6, $7, $7, $7, $7) RETURNING *`,
      [HASH, ALICE, BOB, WEI, '9007199254740993', true, AT],
    )
    const [read] = await db.query('SELECT * FROM payments WHERE tx_hash = $1', [HASH])
    const expected = {
      tx_hash: HASH,
      chain_id: 31337,
      from_address: ALICE,
      to_address: BOB,
      value_wei: WEI,
      status: 'confirmed',
      // bigint: a string, exact past 2^53, as PostgreSQL's driver gives it.
      block_number: '9007199254740993',
      block_hash: null,
      confirmations: 70,
      final: true,
      created_at: AT,
      updated_at: AT,
      confirmed_at: AT,
      pending_since: AT,
      epoch: 0,
      reorgs: 0,
      claim_token: null,
      claimed_until: null,
    }
    expect(read).toStrictEqual(expected)
    expect(inserted).toStrictEqual(expected)
    // Comparisons on timestamps and booleans, counts as numbers, wei as text both ways.
    expect(
      await db.query(
        `SELECT CAST(count(*) AS integer) AS n FROM payments
         WHERE final AND created_at = $1 AND created_at < $2 AND value_wei = $3`,
        [AT, new Date(AT.getTime() + 1), WEI],
      ),
    ).toStrictEqual([{ n: 1 }])
    expect(await db.query('SELECT first_seen, last_sign_in FROM accounts')).toStrictEqual([
      { first_seen: AT, last_sign_in: AT },
    ])
    await db.query('DELETE FROM payments')
  })

  test('error: a wei value that is not digits is refused', async () => {
    await expect(
      db.query(
        `INSERT INTO payments (tx_hash, chain_id, from_address, to_address, value_wei, status)
         VALUES ($1, 1, $2, $3, $4, 'pending')`,
        [HASH, ALICE, BOB, 'lots'],
      ),
    ).rejects.toThrow()
    expect(await db.query('SELECT tx_hash FROM payments')).toEqual([])
  })

  test('behavior: concurrent transactions do not lose updates, and a rolled back one takes only its own writes', async () => {
    await db.query(
      "INSERT INTO payments (tx_hash, chain_id, from_address, to_address, value_wei, status) VALUES ($1, 1, $2, $3, '1', 'pending')",
      [HASH, ALICE, BOB],
    )
    // Each reads the count, yields, and writes it plus one: interleaved without isolation, most would be lost.
    const bump = () =>
      db.transaction(async (tx) => {
        const [row] = await tx.query<{ epoch: number }>(
          'SELECT epoch FROM payments WHERE tx_hash = $1 FOR UPDATE',
          [HASH],
        )
        await new Promise((resolve) => setImmediate(resolve))
        await tx.query('UPDATE payments SET epoch = $2 WHERE tx_hash = $1', [HASH, row!.epoch + 1])
      })
    let release = () => {}
    const held = new Promise<void>((resolve) => {
      release = resolve
    })
    const failing = db
      .transaction(async (tx) => {
        await tx.query('UPDATE payments SET reorgs = 99 WHERE tx_hash = $1', [HASH])
        await held
        throw new Error('changed my mind')
      })
      .catch((error: Error) => error.message)
    // Outside the transaction: written whatever the transaction does, and never seeing its uncommitted write.
    const outside = db.query('UPDATE payments SET confirmations = 5 WHERE tx_hash = $1 RETURNING reorgs', [
      HASH,
    ])
    const bumps = Array.from({ length: 10 }, bump)
    release()
    expect(await failing).toBe('changed my mind')
    expect(await outside).toEqual([{ reorgs: 0 }])
    await Promise.all(bumps)
    expect(
      await db.query('SELECT epoch, reorgs, confirmations FROM payments WHERE tx_hash = $1', [HASH]),
    ).toEqual([{ epoch: 10, reorgs: 0, confirmations: 5 }])
    await db.query('DELETE FROM payments')
  })
})
