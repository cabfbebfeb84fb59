import { createMemoryStorage } from '@pairlink/client'
import { describe, expect, test } from 'vitest'
import { createPendingRequestStore } from './pendingRequests.js'

const KEY = 'test-wallet:requests'
const request = { id: 1, jsonrpc: '2.0' as const, method: 'personal_sign', params: ['0x48', '0xabc'] }

describe('createPendingRequestStore', () => {
  test('default: stores id, method, params and the time, for one session', async () => {
    const storage = createMemoryStorage()
    const store = createPendingRequestStore(storage, KEY)
    await store.save('peer', [{ request, receivedAt: 1000 }])
    expect(JSON.parse(storage.get(KEY) as string)).toEqual({
      peerId: 'peer',
      requests: [{ id: 1, method: 'personal_sign', params: ['0x48', '0xabc'], receivedAt: 1000 }],
    })
    expect(await store.load('peer')).toEqual([{ request, receivedAt: 1000 }])
    expect(await store.load('another peer')).toEqual([])
  })

  test('behavior: an empty list removes the entry', async () => {
    const storage = createMemoryStorage()
    const store = createPendingRequestStore(storage, KEY)
    await store.save('peer', [{ request, receivedAt: 1000 }])
    await store.save('peer', [])
    expect(storage.get(KEY)).toBeUndefined()
  })

  test('behavior: unreadable stored requests are ignored', async () => {
    const storage = createMemoryStorage()
    const store = createPendingRequestStore(storage, KEY)
    storage.set(KEY, '{not json')
    expect(await store.load('peer')).toEqual([])
    storage.set(KEY, JSON.stringify({ peerId: 'peer', requests: [{ id: 'x' }, null] }))
    expect(await store.load('peer')).toEqual([])
  })

  test('error: a storage that throws costs only the restore', async () => {
    const store = createPendingRequestStore(
      {
        get: () => Promise.reject(new Error('blocked')),
        set: () => {
          throw new Error('full')
        },
        remove: () => {},
      },
      KEY,
    )
    await expect(store.save('peer', [{ request, receivedAt: 1 }])).resolves.toBeUndefined()
    await expect(store.load('peer')).resolves.toEqual([])
  })
})
