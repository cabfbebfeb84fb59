import { expect, test } from 'vitest'
import { packagesLoadedBy } from '../test/bundle.js'
import * as bridge from './index.js'

test('exports', () => {
  expect(Object.keys(bridge).sort()).toMatchInlineSnapshot(`
    [
      "BackendError",
      "DEFAULT_MAX_BUFFERED_BYTES",
      "DEFAULT_MAX_CONNECTIONS_PER_IP",
      "DEFAULT_MAX_FRAME_BYTES",
      "DEFAULT_MAX_MESSAGES_PER_SECOND",
      "DEFAULT_MAX_MESSAGES_PER_SECOND_PER_IP",
      "DEFAULT_MAX_QUEUED_BYTES",
      "DEFAULT_MAX_QUEUED_BYTES_PER_IP",
      "DEFAULT_MAX_QUEUE_LENGTH",
      "DEFAULT_MAX_TOPICS_PER_SOCKET",
      "DEFAULT_MAX_TOPIC_LENGTH",
      "DEFAULT_MAX_TOTAL_QUEUED_BYTES",
      "DEFAULT_MAX_WEBHOOKS_IN_FLIGHT",
      "DEFAULT_MAX_WEBHOOKS_PER_TOPIC",
      "DEFAULT_MAX_WEBHOOK_REGISTRATIONS_PER_MINUTE_PER_IP",
      "DEFAULT_MESSAGE_BURST",
      "DEFAULT_MESSAGE_BURST_PER_IP",
      "DEFAULT_MESSAGE_TTL_SECONDS",
      "DEFAULT_PING_INTERVAL_MS",
      "DEFAULT_REDIS_WAIT_TIMEOUT_MS",
      "DEFAULT_RELAY_MAX_ANSWER_BYTES",
      "DEFAULT_RELAY_MAX_ATTESTATION_LENGTH",
      "DEFAULT_RELAY_MAX_BYTES_PER_TOPIC",
      "DEFAULT_RELAY_MAX_MESSAGES_PER_TOPIC",
      "DEFAULT_RELAY_MAX_MESSAGE_LENGTH",
      "DEFAULT_RELAY_MAX_QUEUED_BYTES_PER_NETWORK",
      "DEFAULT_RELAY_MAX_REQUESTS_PER_SECOND",
      "DEFAULT_RELAY_MAX_REQUESTS_PER_SECOND_PER_IP",
      "DEFAULT_RELAY_MAX_TOKEN_LIFETIME_SECONDS",
      "DEFAULT_RELAY_MAX_TOPICS_PER_SOCKET",
      "DEFAULT_RELAY_MAX_TOTAL_BYTES",
      "DEFAULT_RELAY_MAX_TTL_SECONDS",
      "DEFAULT_RELAY_REQUEST_BURST",
      "DEFAULT_RELAY_REQUEST_BURST_PER_IP",
      "DEFAULT_RELAY_SWEEP_INTERVAL_MS",
      "DEFAULT_SWEEP_INTERVAL_MS",
      "DEFAULT_WEBHOOK_TIMEOUT_MS",
      "DEFAULT_WEBHOOK_TTL_SECONDS",
      "InvalidBridgeOptionsError",
      "InvalidWebhookError",
      "RELAY_LIMITS",
      "RelayAuthError",
      "WebhookRateLimitedError",
      "WebhookRefusedError",
      "attachBridge",
      "createBridge",
      "createBridgeServer",
      "createMemoryBackend",
      "createRelay",
      "isSentinelUrl",
      "listeningHosts",
      "listeningNames",
      "parseLinkOptions",
      "parseRedisOptions",
      "readRelayLimits",
      "redactRedisUrl",
      "registerRelayMetrics",
      "relayLimitVariable",
      "resolveRelayLimits",
      "verifyRelayJwt",
    ]
  `)
})

test('behavior: importing the package loads neither ioredis nor pino', async () => {
  const loaded = await packagesLoadedBy('index')
  // Precondition: the bundle does see the core's own dependencies, so an absence below means something.
  expect(loaded).toContain('ws')
  expect(loaded).toContain('prom-client')
  expect(loaded).not.toContain('ioredis')
  expect(loaded).not.toContain('pino')
})

test('behavior: the Redis entry loads ioredis, and only the CLI loads pino', async () => {
  // The same check sees both packages where they belong, so their absence above is no blind spot.
  const redis = await packagesLoadedBy('redis')
  expect(redis).toContain('ioredis')
  expect(redis).not.toContain('pino')
  expect(await packagesLoadedBy('main')).toEqual(expect.arrayContaining(['ioredis', 'pino']))
})
