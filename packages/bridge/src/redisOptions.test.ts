import { describe, expect, test } from 'vitest'
import { InvalidBridgeOptionsError } from './errors.js'
import { isSentinelUrl, parseRedisOptions, redactRedisUrl, sentinelOptions } from './redisOptions.js'

test('default: nothing set, no Redis', () => {
  expect(parseRedisOptions({})).toBeUndefined()
})

describe('args', () => {
  test('args: one URL, no replicas waited for', () => {
    expect(parseRedisOptions({ url: 'redis://:pw@10.0.0.1:6379/2' })).toEqual({
      url: 'redis://:pw@10.0.0.1:6379/2',
      waitForReplicas: false,
    })
  })

  test('args: sentinels and a master name make one redis+sentinel:// URL; one replica waited for', () => {
    expect(
      parseRedisOptions({
        sentinels: '10.0.0.1:26379, 10.0.0.2:26380,[::1]:26381',
        master: 'pairlink',
        password: 'p@ss/word',
        sentinelPassword: 's:ecret',
      }),
    ).toEqual({
      url: 'redis+sentinel://:p%40ss%2Fword@10.0.0.1:26379,10.0.0.2:26380,[::1]:26381/pairlink?sentinelPassword=s%3Aecret',
      waitForReplicas: { replicas: 1, timeoutMs: 500 },
    })
  })

  test('args: the redis+sentinel:// URL as ioredis options', () => {
    const url = 'redis+sentinel://app:p%40ss@s1:26379,s2,[::1]:26000/pairlink/3?sentinelPassword=x'
    expect(isSentinelUrl(url)).toBe(true)
    expect(isSentinelUrl('redis://s1:6379')).toBe(false)
    expect(sentinelOptions(url)).toEqual({
      sentinels: [
        { host: 's1', port: 26379 },
        { host: 's2', port: 26379 },
        { host: '::1', port: 26000 },
      ],
      name: 'pairlink',
      username: 'app',
      password: 'p@ss',
      db: 3,
      sentinelPassword: 'x',
    })
    expect(parseRedisOptions({ url })?.url).toBe(url)
  })

  test('args: replicas and timeout set, or none waited for', () => {
    const sentinels = { sentinels: 's1:26379', master: 'm' }
    expect(
      parseRedisOptions({ ...sentinels, waitReplicas: '2', waitTimeoutMs: '50' })?.waitForReplicas,
    ).toEqual({
      replicas: 2,
      timeoutMs: 50,
    })
    expect(parseRedisOptions({ ...sentinels, waitReplicas: '0' })?.waitForReplicas).toBe(false)
    expect(parseRedisOptions({ url: 'redis://r:6379', waitReplicas: '1' })?.waitForReplicas).toEqual({
      replicas: 1,
      timeoutMs: 500,
    })
  })

  test("args: the v2 write delay, or the store's own when unset", () => {
    expect(parseRedisOptions({ url: 'redis://r:6379', writeDelayMs: '250' })?.writeDelayMs).toBe(250)
    expect(parseRedisOptions({ url: 'redis://r:6379', writeDelayMs: '0' })?.writeDelayMs).toBe(0)
    expect(parseRedisOptions({ url: 'redis://r:6379' })?.writeDelayMs).toBeUndefined()
  })
})

describe('error', () => {
  test.each([
    [
      { url: 'http://r:6379' },
      'REDIS_URL must be a redis://, rediss:// or redis+sentinel:// URL, got http://r:6379',
    ],
    [
      { url: 'redis+sentinel://s1:26379' },
      'REDIS_URL must be redis+sentinel://[user:password@]host:port,host:port/master[/db], got redis+sentinel://s1:26379',
    ],
    [{ url: 'redis+sentinel://s1:26379/m?tls=1' }, 'REDIS_URL must be redis+sentinel://'],
    [
      { sentinels: 's1:26379' },
      'REDIS_SENTINELS (host:port,host:port) and REDIS_SENTINEL_MASTER (the name the sentinels monitor) go together',
    ],
    [
      { sentinels: 's1:99999', master: 'm' },
      'REDIS_SENTINELS must be host:port of each sentinel, comma-separated, got s1:99999',
    ],
    [{ sentinels: 's1:1', master: 'a b' }, 'REDIS_SENTINEL_MASTER must be a master name, got a b'],
    [
      { url: 'redis://r', sentinels: 's1:1', master: 'm' },
      'Set REDIS_URL or REDIS_SENTINELS with REDIS_SENTINEL_MASTER, not both',
    ],
    [
      { url: 'redis://r', sentinelPassword: 'x' },
      'REDIS_SENTINEL_PASSWORD is for sentinels: REDIS_URL names none',
    ],
    [{ waitReplicas: '1' }, 'REDIS_WAIT_REPLICAS needs Redis: set REDIS_URL or REDIS_SENTINELS'],
    [{ url: 'redis://r', waitReplicas: 'one' }, 'REDIS_WAIT_REPLICAS must be a whole number, got one'],
    [{ url: 'redis://r', waitTimeoutMs: '0' }, 'REDIS_WAIT_TIMEOUT_MS must be above 0'],
    [{ writeDelayMs: '100' }, 'REDIS_WRITE_DELAY_MS needs Redis: set REDIS_URL or REDIS_SENTINELS'],
    [{ url: 'redis://r', writeDelayMs: '1s' }, 'REDIS_WRITE_DELAY_MS must be a whole number, got 1s'],
  ])('error: %o', (settings, message) => {
    expect(() => parseRedisOptions(settings)).toThrow(InvalidBridgeOptionsError)
    expect(() => parseRedisOptions(settings)).toThrow(message)
  })

  test('error: a password never appears in a message', () => {
    for (const settings of [
      { url: 'http://alice:hunter2@r:6379' },
      { url: 'redis+sentinel://alice:hunter2@s1:26379' },
      { sentinels: 's1:99999', master: 'm', password: 'hunter2' },
    ])
      expect(() => parseRedisOptions(settings)).toThrow(
        expect.objectContaining({ message: expect.not.stringContaining('hunter2') }),
      )
  })
})

describe('redactRedisUrl', () => {
  test.each([
    [
      'redis+sentinel://:hunter2@s1:26379,s2:26379/pairlink/1?sentinelPassword=x',
      'redis+sentinel://s1:26379,s2:26379/pairlink',
    ],
    ['redis://alice:hunter2@r:6379/0', 'redis://r:6379'],
    ['nonsense', '(invalid URL)'],
  ])('default: %s → %s', (url, shown) => {
    expect(redactRedisUrl(url)).toBe(shown)
  })
})
