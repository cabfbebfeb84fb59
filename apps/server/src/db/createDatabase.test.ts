import { spawnSync } from 'node:child_process'
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, test } from 'vitest'
import { createDatabase, DatabaseInUseError } from './createDatabase.js'

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
    expect(existsSync(`${dir}.lock`)).toBe(false)
    const second = await createDatabase({ dataDir: dir })
    expect(await second.query<{ one: number }>('SELECT 1 AS one')).toEqual([{ one: 1 }])
    await second.close()
  })

  test('behavior: a lock left by a process that is gone (a crash) is taken over', async () => {
    const dir = dataDir()
    const gone = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], {
      encoding: 'utf8',
    })
    writeFileSync(`${dir}.lock`, gone.stdout)
    const db = await createDatabase({ dataDir: dir })
    expect(await db.query<{ one: number }>('SELECT 1 AS one')).toEqual([{ one: 1 }])
    await db.close()
  })
})
