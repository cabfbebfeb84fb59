import { describe, expect, test } from 'vitest'
import { InvalidBridgeOptionsError } from './errors.js'
import { CLI_OPTIONS, formatCliUsage, parseCliOptions } from './parseCliOptions.js'
import { RELAY_LIMITS, relayLimitVariable } from './v2/relayOptions.js'

test('default', () => {
  expect(parseCliOptions([], {})).toEqual({
    help: false,
    port: 5001,
    host: '127.0.0.1',
    redis: undefined,
    redisPrefix: undefined,
    redisWaitForReplicas: false,
    links: {},
    logLevel: 'info',
    maxTotalQueuedBytes: undefined,
    bridge: { webhooks: {} },
  })
})

describe('args', () => {
  test('args: every flag', () => {
    const options = parseCliOptions(
      [
        '--port=6000',
        '--host',
        '0.0.0.0',
        '--redis',
        'redis://127.0.0.1:1',
        '--redis-prefix',
        'p:',
        '--link-listen',
        '[::]:7000',
        '--link-advertise',
        '10.0.0.5:7000',
        '--link-secret',
        'a-secret-of-20-chars',
        '--ttl',
        '60',
        '--max-queue-length',
        '5',
        '--max-queued-bytes',
        '1000',
        '--max-frame-bytes',
        '2048',
        '--max-topics-per-socket',
        '4',
        '--max-topic-length',
        '64',
        '--max-connections-per-ip',
        '0',
        '--max-messages-per-second',
        '10',
        '--message-burst',
        '20',
        '--max-messages-per-second-per-ip',
        '50',
        '--message-burst-per-ip',
        '100',
        '--max-queued-bytes-per-ip',
        '3000',
        '--max-total-queued-bytes',
        '9000',
        '--max-webhook-registrations-per-minute',
        '6',
        '--max-buffered-bytes',
        '4096',
        '--ping-interval',
        '5000',
        '--webhook-timeout',
        '1000',
        '--webhook-allow',
        'push.internal, 10.0.0.0/8',
        '--trust-proxy',
        '--redis-wait-replicas',
        '2',
        '--redis-wait-timeout',
        '100',
        '--redis-write-delay',
        '250',
        '--log-level',
        'debug',
      ],
      {},
    )
    expect(options).toEqual({
      help: false,
      port: 6000,
      host: '0.0.0.0',
      redis: 'redis://127.0.0.1:1',
      redisPrefix: 'p:',
      redisWaitForReplicas: { replicas: 2, timeoutMs: 100 },
      redisWriteDelayMs: 250,
      links: { host: '::', port: 7000, advertise: '10.0.0.5:7000', secret: 'a-secret-of-20-chars' },
      logLevel: 'debug',
      maxTotalQueuedBytes: 9000,
      bridge: {
        ttlSeconds: 60,
        maxQueueLength: 5,
        maxQueuedBytes: 1000,
        maxFrameBytes: 2048,
        maxTopicsPerSocket: 4,
        maxTopicLength: 64,
        maxConnectionsPerIp: 0,
        maxMessagesPerSecond: 10,
        messageBurst: 20,
        maxMessagesPerSecondPerIp: 50,
        messageBurstPerIp: 100,
        maxQueuedBytesPerIp: 3000,
        maxWebhookRegistrationsPerMinutePerIp: 6,
        maxBufferedBytes: 4096,
        pingIntervalMs: 5000,
        trustProxy: true,
        webhooks: { timeoutMs: 1000, allowHosts: ['push.internal', '10.0.0.0/8'] },
      },
    })
  })

  test("args: the v2 relay's public URLs, longest ttl and project ids", () => {
    const options = parseCliOptions(['--relay-url', 'wss://relay.example.com, wss://b.example.com'], {
      BRIDGE_RELAY_MAX_TTL: '3600',
      BRIDGE_RELAY_PROJECT_IDS: 'aa,bb',
    })
    expect(options.bridge.relayUrls).toEqual(['wss://relay.example.com', 'wss://b.example.com'])
    expect(options.bridge.relay).toEqual({ maxTtlSeconds: 3600, projectIds: ['aa', 'bb'] })
    expect(parseCliOptions([], {}).bridge.relay).toBeUndefined()
  })

  test("args: the v2 relay's allowed origins and refusal style", () => {
    const options = parseCliOptions(['--relay-refusal', 'close'], {
      BRIDGE_RELAY_ALLOWED_ORIGINS: 'https://app.example, shop.example:8443',
    })
    expect(options.bridge.relay).toEqual({
      allowedOrigins: ['https://app.example', 'shop.example:8443'],
      refusal: 'close',
    })
    expect(() => parseCliOptions(['--relay-refusal', 'drop'], {})).toThrow(
      'Invalid --relay-refusal: expected http or close, got drop',
    )
  })

  test('args: every flag has an environment variable; a flag wins over it', () => {
    expect(new Set(CLI_OPTIONS.map((option) => option.env)).size).toBe(CLI_OPTIONS.length)
    const options = parseCliOptions(['--ttl', '30'], {
      PORT: '7000',
      REDIS_URL: 'redis://r:6379',
      BRIDGE_TTL: '99',
      BRIDGE_TRUST_PROXY: 'false',
      BRIDGE_WEBHOOK_ALLOW: '127.0.0.1',
    })
    expect(options.port).toBe(7000)
    expect(options.redis).toBe('redis://r:6379')
    expect(options.bridge).toEqual({
      ttlSeconds: 30,
      trustProxy: false,
      webhooks: { allowHosts: ['127.0.0.1'] },
    })
  })

  test('args: Redis through Sentinel, passwords from the environment only', () => {
    const options = parseCliOptions(
      ['--redis-sentinels', 's1:26379,s2:26379', '--redis-sentinel-master', 'pl'],
      {
        REDIS_PASSWORD: 'pw',
        REDIS_SENTINEL_PASSWORD: 'spw',
      },
    )
    expect(options.redis).toBe('redis+sentinel://:pw@s1:26379,s2:26379/pl?sentinelPassword=spw')
    expect(options.redisWaitForReplicas).toEqual({ replicas: 1, timeoutMs: 500 })
    expect(() => parseCliOptions(['--redis', 'redis://r', '--redis-sentinels', 's1:1'], {})).toThrow(
      'Set --redis or --redis-sentinels with --redis-sentinel-master, not both',
    )
  })

  test('args: node links off, or listening on a free port of an address', () => {
    expect(parseCliOptions(['--link-listen', 'off', '--link-secret', 'x'], {}).links).toBe(false)
    expect(parseCliOptions([], { BRIDGE_LINK_LISTEN: '0.0.0.0:0' }).links).toEqual({
      host: '0.0.0.0',
      port: 0,
    })
  })

  test('args: --help', () => {
    expect(parseCliOptions(['-h'], {}).help).toBe(true)
    const usage = formatCliUsage()
    for (const option of CLI_OPTIONS) expect(usage).toContain(`--${option.flag}`)
  })

  test('args: --help keeps its columns apart for the longest flag and variable', () => {
    const rows = formatCliUsage().split('\n').slice(2)
    const envColumn = (rows[0] as string).indexOf('env')
    const whatColumn = (rows[0] as string).indexOf('what')
    for (const [i, option] of CLI_OPTIONS.entries()) {
      const row = rows[i + 1] as string
      expect(row.indexOf(option.env), option.flag).toBe(envColumn)
      expect(row.slice(envColumn + option.env.length, whatColumn)).toMatch(/^ {2,}$/)
    }
  })

  test('args: every v2 relay limit has a flag and a variable, the flag winning', () => {
    for (const limit of RELAY_LIMITS) {
      const env = { [`BRIDGE_RELAY_${relayLimitVariable(limit)}`]: '7' }
      expect(parseCliOptions([], env).bridge.relay, limit.key).toEqual({ [limit.key]: 7 })
      expect(parseCliOptions([`--relay-${limit.flag}`, '9'], env).bridge.relay).toEqual({ [limit.key]: 9 })
    }
    const other = parseCliOptions(
      [
        '--relay-max-message-length-by-tag',
        '1109:98304, 1100:1000',
        '--relay-min-request-id',
        '1000000000',
        '--read-burst-bytes-per-ip',
        '65536',
      ],
      {
        BRIDGE_RELAY_STRICT_AUDIENCE: 'true',
        BRIDGE_MAX_BUFFERED_BYTES_PER_IP: '1048576',
        BRIDGE_MAX_READ_BYTES_PER_SECOND_PER_IP: '0',
      },
    )
    expect(other.bridge.relay).toEqual({
      maxMessageLengthByTag: { 1109: 98_304, 1100: 1_000 },
      minRequestId: 1_000_000_000,
    })
    expect(other.bridge.strictAudience).toBe(true)
    expect(other.bridge.maxBufferedBytesPerIp).toBe(1_048_576)
    expect(other.bridge.maxReadBytesPerSecondPerIp).toBe(0)
    expect(other.bridge.readBurstBytesPerIp).toBe(65_536)
  })
})

describe('error', () => {
  test('error: unknown flags and wrong-typed values throw InvalidBridgeOptionsError', () => {
    for (const [argv, env] of [
      [['--nope'], {}],
      [['--port', 'abc'], {}],
      [['--port', '70000'], {}],
      [['--ttl', ''], { BRIDGE_TTL: 'x' }],
      [[], { BRIDGE_TRUST_PROXY: 'maybe' }],
      [['--link-listen', '7000'], {}],
      [['--link-listen', 'host:99999'], {}],
      [[], { BRIDGE_LINK_ADVERTISE: '10.0.0.5' }],
      [['--link-secret', 'short'], {}],
      [['--relay-max-total-bytes', 'many'], {}],
      [['--relay-max-message-length-by-tag', '1109=5'], {}],
    ] as const)
      expect(() => parseCliOptions(argv, env)).toThrow(InvalidBridgeOptionsError)
  })
})
