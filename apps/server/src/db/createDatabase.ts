import { mkdirSync } from 'node:fs'
import { PGlite } from '@electric-sql/pglite'
import pg from 'pg'
import { runMigrations } from './migrate.js'

/** One SQL database, embedded (PGlite) or PostgreSQL, behind the same small interface and the same SQL. */
export type Database = {
  kind: 'pglite' | 'postgres'
  /** Runs one parameterised statement ($1, $2, …) and returns its rows. */
  query<row = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<row[]>
  /** Runs `fn` in a transaction; a throw rolls it back. */
  transaction<result>(fn: (tx: Pick<Database, 'query'>) => Promise<result>): Promise<result>
  close(): Promise<void>
}

/** Parameters of {@link createDatabase}. */
export type CreateDatabaseParameters = {
  /** A `postgres://` URL; without it the embedded database is used. */
  url?: string | undefined
  /** Folder of the embedded database; `memory` keeps it in memory. @default 'memory' */
  dataDir?: string | undefined
}

/**
 * Opens the app's database and runs the pending migrations. PGlite is PostgreSQL compiled to WebAssembly, so the
 * embedded default and a real PostgreSQL (`DATABASE_URL`) run the very same schema and statements.
 *
 * @example
 * const db = await createDatabase({ url: process.env.DATABASE_URL, dataDir: '.pairlink/db' })
 */
export async function createDatabase(parameters: CreateDatabaseParameters = {}): Promise<Database> {
  const db = parameters.url ? openPostgres(parameters.url) : await openPglite(parameters.dataDir ?? 'memory')
  try {
    await runMigrations(db)
  } catch (error) {
    await db.close()
    throw error
  }
  return db
}

async function openPglite(dataDir: string): Promise<Database> {
  if (dataDir !== 'memory') mkdirSync(dataDir, { recursive: true })
  const client = dataDir === 'memory' ? new PGlite() : new PGlite(dataDir)
  await client.waitReady
  // PGlite runs one statement at a time; a queue keeps a transaction's statements from interleaving with others.
  let tail: Promise<unknown> = Promise.resolve()
  const serial = <result>(fn: () => Promise<result>): Promise<result> => {
    const run = tail.then(fn, fn)
    tail = run.catch(() => {})
    return run
  }
  const query = async <row>(sql: string, params: unknown[] = []) =>
    (await client.query<row>(sql, params)).rows
  return {
    kind: 'pglite',
    query: (sql, params) => serial(() => query(sql, params)),
    transaction: (fn) =>
      serial(() =>
        client.transaction((tx) =>
          fn({ query: async (sql, params = []) => (await tx.query(sql, params)).rows as never }),
        ),
      ),
    close: () => client.close(),
  }
}

function openPostgres(url: string): Database {
  const pool = new pg.Pool({ connectionString: url, max: 10, connectionTimeoutMillis: 5000 })
  pool.on('error', () => {})
  return {
    kind: 'postgres',
    query: async (sql, params = []) => (await pool.query(sql, params)).rows,
    async transaction(fn) {
      const client = await pool.connect()
      try {
        await client.query('BEGIN')
        const result = await fn({ query: async (sql, params = []) => (await client.query(sql, params)).rows })
        await client.query('COMMIT')
        return result
      } catch (error) {
        await client.query('ROLLBACK').catch(() => {})
        throw error
      } finally {
        client.release()
      }
    },
    close: () => pool.end(),
  }
}
