import { closeSync, mkdirSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs'
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

/** The embedded database's folder is in use by another live process. */
export class DatabaseInUseError extends Error {
  override name = 'DatabaseInUseError'
}

/**
 * Takes `${dataDir}.lock` for this process: PGlite is one process's database, and a second server opening the same
 * folder would corrupt it. A lock whose process is gone (a crash) is taken over. Returns its release.
 */
function lockDataDir(dataDir: string): () => void {
  const path = `${dataDir}.lock`
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(path, 'wx')
      writeSync(fd, String(process.pid))
      closeSync(fd)
      return () => rmSync(path, { force: true })
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error
      const pid = Number(readFileSync(path, 'utf8'))
      if (Number.isInteger(pid) && pid > 0 && isAlive(pid))
        throw new DatabaseInUseError(
          `The embedded database in ${dataDir} is in use by another Pairlink server (pid ${pid}): stop it, or give this one its own DATA_DIR or a DATABASE_URL`,
        )
      rmSync(path, { force: true })
    }
  }
  throw new DatabaseInUseError(
    `The embedded database in ${dataDir} could not be locked: ${path} keeps coming back`,
  )
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    // EPERM: the process exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === 'EPERM'
  }
}

async function openPglite(dataDir: string): Promise<Database> {
  let release = () => {}
  if (dataDir !== 'memory') {
    mkdirSync(dataDir, { recursive: true })
    release = lockDataDir(dataDir)
  }
  const client = dataDir === 'memory' ? new PGlite() : new PGlite(dataDir)
  await client.waitReady.catch((error: unknown) => {
    release()
    throw error
  })
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
    close: async () => {
      await client.close()
      release()
    },
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
