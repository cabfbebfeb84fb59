import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterEach, describe, expect, test } from 'vitest'
import { resolveLayout } from './resolveLayout.js'

const folders: string[] = []
afterEach(() => {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true })
})
const scratch = () => {
  const folder = mkdtempSync(join(tmpdir(), 'pairlink-layout-'))
  folders.push(folder)
  return folder
}

describe('resolveLayout', () => {
  test('default: in the repository, the apps’ builds and .pairlink/db at its root', () => {
    const server = fileURLToPath(new URL('..', import.meta.url))
    const repository = join(server, '..', '..')
    expect(resolveLayout(server, '/elsewhere')).toEqual({
      monorepo: true,
      webDir: join(repository, 'apps', 'web', 'dist'),
      walletDir: join(repository, 'apps', 'wallet', 'dist'),
      dataDir: join(repository, '.pairlink', 'db'),
    })
  })

  test('behavior: installed, the package’s own web/ and wallet/, and .pairlink/db in the working folder', () => {
    const app = scratch()
    const server = join(app, 'node_modules', '@pairlink', 'server')
    mkdirSync(join(server, 'dist'), { recursive: true })
    // A package named `web` beside it is not the repository's apps/web: there is no src/main.ts.
    mkdirSync(join(app, 'node_modules', '@pairlink', 'web'))
    writeFileSync(join(app, 'node_modules', '@pairlink', 'web', 'package.json'), '{}')
    expect(resolveLayout(server, app)).toEqual({
      monorepo: false,
      webDir: join(server, 'web'),
      walletDir: join(server, 'wallet'),
      dataDir: join(app, '.pairlink', 'db'),
    })
  })
})
