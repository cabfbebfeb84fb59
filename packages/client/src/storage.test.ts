import { mkdir, mkdtemp, readFile, rm, stat } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { StoredSession } from '@pairlink/protocol'
import { describe, expect, test } from 'vitest'
import { createFileStorage, createMemoryStorage, formatStoredSession, parseStoredSession } from './storage.js'

const session: StoredSession = {
  connected: true,
  accounts: ['0x9b2055d370f73ec7d8a03e965129118dc8f5bf83'],
  chainId: 1,
  bridge: 'http://127.0.0.1:39775',
  key: '979d59a2d8d78c034dde2c1a44a4731744ca7eee39a179336da5b214818184c6',
  clientId: '4083b26b-5516-4acc-9d27-f9748ce26f66',
  clientMeta: { description: 'Wallet', url: 'https://wallet.example', icons: [], name: 'Wallet' },
  peerId: 'e385e2e2-397b-4120-b07d-36ba8ba54ade',
  peerMeta: null,
  handshakeId: 1795300478693862,
  handshakeTopic: '61d75b95-715f-489c-a259-2f27bd94052c',
}

describe('createMemoryStorage', () => {
  test('default', () => {
    const storage = createMemoryStorage()
    expect(storage.get('k')).toBeUndefined()
    storage.set('k', 'v')
    expect(storage.get('k')).toBe('v')
    storage.remove('k')
    expect(storage.get('k')).toBeUndefined()
  })
})

describe('createFileStorage', () => {
  test('default', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'pairlink-client-'))
    const path = join(dir, 'session.json')
    const storage = createFileStorage(path)
    expect(await storage.get('walletconnect')).toBeUndefined()
    await Promise.all([storage.set('walletconnect', 'a'), storage.set('other', 'b')])
    expect(await createFileStorage(path).get('walletconnect')).toBe('a')
    expect(JSON.parse(await readFile(path, 'utf8'))).toEqual({ walletconnect: 'a', other: 'b' })
    // The file holds the session key: owner only.
    expect((await stat(path)).mode & 0o777).toBe(0o600)
    await storage.remove('walletconnect')
    expect(await storage.get('walletconnect')).toBeUndefined()
    expect(await storage.get('other')).toBe('b')
    await rm(dir, { recursive: true })
  })

  test('behavior: a failed write rejects only its own call', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'pairlink-client-'))
    // The folder does not exist yet: the first write fails for real.
    const path = join(dir, 'later', 'session.json')
    const storage = createFileStorage(path)
    await expect(storage.set('walletconnect', 'a')).rejects.toMatchObject({ code: 'ENOENT' })
    await mkdir(join(dir, 'later'))
    expect(await storage.get('walletconnect')).toBeUndefined()
    await storage.set('walletconnect', 'b')
    expect(await storage.get('walletconnect')).toBe('b')
    await storage.remove('walletconnect')
    expect(await storage.get('walletconnect')).toBeUndefined()
    await rm(dir, { recursive: true })
  })

  test('behavior: a corrupt file reads as empty', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'pairlink-client-'))
    const path = join(dir, 'session.json')
    await (await import('node:fs/promises')).writeFile(path, '{oops')
    expect(await createFileStorage(path).get('walletconnect')).toBeUndefined()
    await rm(dir, { recursive: true })
  })
})

describe('formatStoredSession', () => {
  test('default: v1 key order (reference §4.7)', () => {
    const shuffled = Object.fromEntries(Object.entries(session).reverse()) as StoredSession
    expect(Object.keys(JSON.parse(formatStoredSession(shuffled)))).toEqual([
      'connected',
      'accounts',
      'chainId',
      'bridge',
      'key',
      'clientId',
      'clientMeta',
      'peerId',
      'peerMeta',
      'handshakeId',
      'handshakeTopic',
    ])
  })
})

describe('parseStoredSession', () => {
  test('default', () => {
    expect(parseStoredSession(formatStoredSession(session))).toEqual(session)
  })

  test('behavior: rejects what v1 would not restore', () => {
    expect(parseStoredSession(undefined)).toBeUndefined()
    expect(parseStoredSession('not json')).toBeUndefined()
    expect(parseStoredSession('null')).toBeUndefined()
    expect(parseStoredSession(JSON.stringify({ ...session, bridge: undefined }))).toBeUndefined()
    expect(parseStoredSession(JSON.stringify({ ...session, key: 1 }))).toBeUndefined()
  })
})
