import { createSerialQueue } from '@pairlink/protocol'
import Libsql from 'libsql'
import type { Database } from './createDatabase.js'

type Statement = ReturnType<Libsql.Database['prepare']>
type Prepared = { statement: Statement; read: (row: Record<string, unknown>) => Record<string, unknown> }

/** Statements kept prepared; the app's SQL is a few dozen constant strings. */
const CACHE_SIZE = 200

/**
 * Opens SQLite (through `libsql`) at `file` (`:memory:` for a database that lives as long as the process) as a
 * {@link Database} that runs the app's PostgreSQL-flavoured statements and answers rows of the same JS shape as
 * PostgreSQL's driver: see {@link toSqlite} for the SQL and the migrations' declared types for the values.
 * A file database is in WAL mode, waits up to 5 s for another connection's lock, and enforces foreign keys.
 */
export function openSqlite(file: string): Database {
  const client = new Libsql(file)
  try {
    if (file !== ':memory:') client.exec('PRAGMA journal_mode = WAL')
    client.exec('PRAGMA busy_timeout = 5000')
    client.exec('PRAGMA foreign_keys = ON')
  } catch (error) {
    client.close()
    throw error
  }

  const cache = new Map<string, Prepared>()
  const prepare = (sql: string): Prepared => {
    let prepared = cache.get(sql)
    if (!prepared) {
      const statement = client.prepare(toSqlite(sql))
      prepared = { statement, read: reader(statement) }
      if (cache.size >= CACHE_SIZE) cache.delete(cache.keys().next().value as string)
      cache.set(sql, prepared)
    }
    return prepared
  }
  const run = <row>(sql: string, params: unknown[] = []): row[] => {
    const { statement, read } = prepare(sql)
    // `all` runs a statement that returns nothing as well, and answers [] for it.
    return statement.all(params.map(toSqliteValue)).map((row) => read(row as Record<string, unknown>) as row)
  }

  // One connection, used from async code: a queue keeps a transaction's statements from interleaving with others'.
  const { add: serial } = createSerialQueue()

  return {
    kind: 'sqlite',
    query: (sql, params) => serial(() => run(sql, params)),
    transaction: (fn) =>
      serial(async () => {
        // IMMEDIATE takes the write lock now, as PostgreSQL's row locks would on the first FOR UPDATE.
        client.exec('BEGIN IMMEDIATE')
        try {
          const result = await fn({ query: async (sql, params) => run(sql, params) })
          client.exec('COMMIT')
          return result
        } catch (error) {
          if (client.inTransaction) client.exec('ROLLBACK')
          throw error
        }
      }),
    close: () =>
      serial(() => {
        cache.clear()
        client.close()
      }),
  }
}

/**
 * The app's SQL as SQLite reads it. Parameters `$1`, `$2`, … become `?1`, `?2`, … (the same numbered parameter, so
 * one may be used twice), and row locks (`FOR UPDATE`, `FOR UPDATE SKIP LOCKED`) are left out: a SQLite
 * transaction holds the whole database's write lock (`BEGIN IMMEDIATE`), which already keeps others off the rows.
 * Everything else must already be SQL both engines run (`CAST(x AS text)`, not `x::text`).
 */
function toSqlite(sql: string): string {
  return sql.replace(/\$(\d+)/g, '?$1').replace(/\s+FOR\s+UPDATE(\s+SKIP\s+LOCKED)?\b/gi, '')
}

/**
 * A JS parameter as SQLite binds it: booleans as 1/0, dates as ISO 8601 text (how timestamptz columns hold them).
 * Anything else that is not a string, number, bigint, bytes or null is refused here (libsql would abort the process
 * on some of them).
 */
function toSqliteValue(value: unknown, index: number): unknown {
  if (value === undefined || value === null) return null
  if (typeof value === 'boolean') return value ? 1 : 0
  if (value instanceof Date) return value.toISOString()
  if (['string', 'number', 'bigint'].includes(typeof value) || value instanceof Uint8Array) return value
  throw new TypeError(
    `SQL parameter $${index + 1} must be a string, number, bigint, boolean, Date, bytes or null, got ${typeof value}`,
  )
}

/**
 * Reads a row as PostgreSQL's driver would, from the declared type of each column it comes from: timestamptz →
 * Date, boolean → true/false, bigint → string (exact: statements read integers as BigInt). Any other integer, a
 * column's or an expression's, is a number, so statements cast counts (`CAST(count(*) AS integer)`) to get a
 * number on both engines.
 */
function reader(statement: Statement): (row: Record<string, unknown>) => Record<string, unknown> {
  if (!statement.reader) return (row) => row
  statement.safeIntegers(true)
  const converters = new Map<string, (value: unknown) => unknown>()
  for (const column of statement.columns()) {
    const convert = CONVERTERS[column.type?.toLowerCase() ?? '']
    if (convert) converters.set(column.name, convert)
  }
  return (row) => {
    for (const name in row) {
      const value = row[name]
      if (value === null) continue
      const convert = converters.get(name)
      if (convert) row[name] = convert(value)
      else if (typeof value === 'bigint') row[name] = Number(value)
    }
    return row
  }
}

const CONVERTERS: Record<string, (value: unknown) => unknown> = {
  timestamptz: (value) => new Date(value as string),
  boolean: (value) => value === 1n,
  bigint: (value) => String(value),
}
