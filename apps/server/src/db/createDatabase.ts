import { closeSync, mkdirSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs'
import { join } from 'node:path'
import { runMigrations } from './migrate.js'
import { openSqlite } from './sqlite.js'

/**
 * One SQL database, embedded (SQLite) or PostgreSQL, behind the same small interface and the same SQL. Rows have the
 * same JS shape on both: timestamps are Dates, booleans booleans, bigint columns and wei values strings.
 */
export type Database = {
  kind: 'sqlite' | 'postgres'
  /**
   * Runs one parameterised statement ($1, $2, …) and returns its rows. Parameters may be strings, numbers,
   * bigints, booleans, Dates or null.
   */
  query<row = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<row[]>
  /**
   * Runs `fn` in a transaction; a throw rolls it back. Inside, use only `tx`: on SQLite the database's other calls
   * wait for the transaction to end.
   */
  transaction<result>(fn: (tx: Pick<Database, 'query'>) => Promise<result>): Promise<result>
  close(): Promise<void>
}

/** Parameters of {@link createDatabase}. */
export type CreateDatabaseParameters = {
  /** A `postgres://` URL; without it the embedded database is used. */
  url?: string | undefined
  /** Folder of the embedded database (its file is {@link EMBEDDED_FILE} in it); `memory` keeps it in memory. @default 'memory' */
  dataDir?: string | undefined
}

/** The embedded database's file in its folder. */
export const EMBEDDED_FILE = 'pairlink.sqlite'

/**
 * Opens the app's database and runs the pending migrations: PostgreSQL with `url`, else the embedded SQLite (a file
 * in `dataDir`, light enough for a small server). Both run the same statements; each has its own copy of the
 * numbered migrations (`migrations/postgres`, `migrations/sqlite`).
 *
 * @example
 * const db = await createDatabase({ url: process.env.DATABASE_URL, dataDir: '.pairlink/db' })
 */
export async function createDatabase(parameters: CreateDatabaseParameters = {}): Promise<Database> {
  const db = parameters.url
    ? await openPostgres(parameters.url)
    : openEmbedded(parameters.dataDir ?? 'memory')
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

/** The lock files this process holds. */
const held = new Set<string>()

/**
 * The database cannot be reached (PostgreSQL stopped, restarting, out of connections, or the network to it down):
 * the API answers 503 `ERR_DATABASE_UNAVAILABLE` rather than a bare 500. `cause` is the driver's error.
 */
export class DatabaseUnavailableError extends Error {
  override name = 'DatabaseUnavailableError'
  readonly code = 'ERR_DATABASE_UNAVAILABLE'
}

/** System error codes of a connection that could not be opened or was lost. */
const CONNECTION_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EPIPE',
])

/**
 * Whether a pg error means PostgreSQL cannot be reached, as opposed to a statement it refused: a socket error, a
 * SQLSTATE of class 08 (connection exception), 57P01–57P03 (shutting down, crashed, starting up) or 53300 (too
 * many connections), or the pool's own texts for a connection that ended or could not be made in time.
 */
function isConnectionError(error: unknown): boolean {
  if (!(error instanceof Error)) return false
  const code = (error as { code?: unknown }).code
  if (typeof code === 'string') {
    if (CONNECTION_CODES.has(code) || code.startsWith('08')) return true
    if (['57P01', '57P02', '57P03', '53300'].includes(code)) return true
  }
  return /^(Connection terminated|timeout exceeded when trying to connect)|not queryable/.test(error.message)
}

/** Runs `work`, turning a lost or refused connection into a {@link DatabaseUnavailableError}. */
async function reachable<result>(work: () => Promise<result>): Promise<result> {
  try {
    return await work()
  } catch (error) {
    if (!isConnectionError(error)) throw error
    throw new DatabaseUnavailableError('PostgreSQL cannot be reached', { cause: error })
  }
}

/**
 * Takes `pairlink.lock` in `dataDir` for this process (inside it: a `DATA_DIR` at a volume's root, `/data`, needs no
 * write access to its parent). SQLite itself lets processes share a file, but two servers on one
 * embedded database would both follow its payments and purge its sessions, with nothing to tell their operator:
 * the embedded database is one server's. A lock whose process is gone (a crash) is taken over. Returns its release.
 */
function lockDataDir(dataDir: string): () => void {
  const path = join(dataDir, LOCK_FILE)
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(path, 'wx')
      writeSync(fd, String(process.pid))
      closeSync(fd)
      held.add(path)
      return () => {
        held.delete(path)
        rmSync(path, { force: true })
      }
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error
      const pid = Number(readFileSync(path, 'utf8'))
      // A lock naming this process's own pid that this process did not take was left by an earlier process that had
      // the same pid: in a container the server is always pid 1, so one killed (SIGKILL, out of memory) would
      // otherwise keep its restarts from ever opening the database.
      const earlierSelf = pid === process.pid && !held.has(path)
      if (Number.isInteger(pid) && pid > 0 && !earlierSelf && isAlive(pid))
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

/** The embedded database's lock, beside its file. */
const LOCK_FILE = 'pairlink.lock'

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    // EPERM: the process exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === 'EPERM'
  }
}

function openEmbedded(dataDir: string): Database {
  if (dataDir === 'memory') return openSqlite(':memory:')
  mkdirSync(dataDir, { recursive: true })
  const release = lockDataDir(dataDir)
  try {
    const db = openSqlite(join(dataDir, EMBEDDED_FILE))
    return {
      ...db,
      close: async () => {
        await db.close()
        release()
      },
    }
  } catch (error) {
    release()
    throw error
  }
}

async function openPostgres(url: string): Promise<Database> {
  // Loaded only for PostgreSQL: the embedded default starts without it.
  const { default: pg } = await import('pg')
  const pool = new pg.Pool({ connectionString: url, max: 10, connectionTimeoutMillis: 5000 })
  pool.on('error', () => {})
  return {
    kind: 'postgres',
    query: (sql, params = []) => reachable(async () => (await pool.query(sql, params)).rows),
    transaction: (fn) => reachable(() => transaction(pool, fn)),
    close: () => pool.end(),
  }
}

async function transaction<result>(
  pool: import('pg').Pool,
  fn: (tx: Pick<Database, 'query'>) => Promise<result>,
): Promise<result> {
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
}
