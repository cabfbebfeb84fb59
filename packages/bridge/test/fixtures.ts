import { startRedis, type TestRedis } from '@pairlink/test-kit/redis'
import { afterAll, afterEach, beforeAll } from 'vitest'
import type { CreateBridgeServerParameters } from '../src/server.js'
import { connect, type TestClient } from './client.js'
import { startBridge } from './server.js'

/** What a test registers to undo after itself: run newest first after each test. */
export type Cleanups = (() => Promise<unknown> | unknown)[]

/** A list of cleanups the file's tests push to, emptied (newest first) after each test. */
export function useCleanups(): Cleanups {
  const cleanups: Cleanups = []
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
  })
  return cleanups
}

/** One redis-server for the file (its own, or `REDIS_URL`'s), started before its tests and stopped after. */
export function useRedis(): () => TestRedis {
  let redis: TestRedis | undefined
  beforeAll(async () => {
    redis = await startRedis()
  })
  afterAll(() => redis?.stop())
  return () => {
    if (!redis) throw new Error('useRedis(): read it inside a test')
    return redis
  }
}

/** Bridges on free loopback ports and v1 clients of them, each closed after the test. */
export function bridgeFixtures(cleanups: Cleanups) {
  return {
    async bridge(parameters: CreateBridgeServerParameters = {}) {
      const started = await startBridge(parameters)
      cleanups.push(started.close)
      return started
    },
    async client(url: string, options: Parameters<typeof connect>[1] = {}): Promise<TestClient> {
      const c = await connect(url, options)
      cleanups.push(() => c.close())
      return c
    },
  }
}
