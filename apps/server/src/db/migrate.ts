import { readdirSync, readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import type { Database } from './createDatabase.js'

/** One folder of numbered migrations per engine, `postgres/` and `sqlite/`, with the same files doing the same change. */
const MIGRATIONS = fileURLToPath(new URL('../../migrations/', import.meta.url))
// Any constant works; it only has to be the same on every node so two servers starting together take turns.
const LOCK_ID = 4_711_031

/** Migration files, `NNN_name.sql`, in order. */
function listMigrations(dir: string): { version: number; name: string; sql: string }[] {
  return readdirSync(dir)
    .filter((file) => /^\d+_[\w-]+\.sql$/.test(file))
    .sort()
    .map((file) => ({
      version: Number.parseInt(file, 10),
      name: file,
      sql: readFileSync(`${dir}${file}`, 'utf8'),
    }))
}

/**
 * Applies the migrations of `db`'s engine (`migrations/<kind>/`, or `dir`) not yet recorded in
 * `schema_migrations`, each in its own transaction, in version order. On PostgreSQL an advisory lock makes
 * concurrent starts wait for each other.
 */
export async function runMigrations(db: Database, dir = `${MIGRATIONS}${db.kind}/`): Promise<number[]> {
  await db.query(
    'CREATE TABLE IF NOT EXISTS schema_migrations (version integer PRIMARY KEY, name text NOT NULL, applied_at timestamptz NOT NULL)',
  )
  const applied: number[] = []
  for (const migration of listMigrations(dir)) {
    const done = await db.transaction(async (tx) => {
      if (db.kind === 'postgres') await tx.query('SELECT pg_advisory_xact_lock($1)', [LOCK_ID])
      const rows = await tx.query('SELECT 1 FROM schema_migrations WHERE version = $1', [migration.version])
      if (rows.length > 0) return false
      for (const statement of splitStatements(migration.sql)) await tx.query(statement)
      await tx.query('INSERT INTO schema_migrations (version, name, applied_at) VALUES ($1, $2, $3)', [
        migration.version,
        migration.name,
        new Date(),
      ])
      return true
    })
    if (done) applied.push(migration.version)
  }
  return applied
}

/** Splits a migration into statements (our migrations hold no `;` inside strings or bodies). */
function splitStatements(sql: string): string[] {
  return sql
    .split('\n')
    .filter((line) => !line.trimStart().startsWith('--'))
    .join('\n')
    .split(';')
    .map((s) => s.trim())
    .filter(Boolean)
}
