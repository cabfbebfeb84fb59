import { expect, test } from 'vitest'
import * as redis from './redis.js'

test('exports', () => {
  expect(Object.keys(redis).sort()).toMatchInlineSnapshot(`
    [
      "DEFAULT_REDIS_KEY_PREFIX",
      "DEFAULT_RELAY_REDIS_KEY_PREFIX",
      "createRedisBackend",
      "createRedisRelayStore",
    ]
  `)
})
