import { expect, test } from 'vitest'
import * as bridge from './index.js'

test('exports', () => {
  expect(Object.keys(bridge).sort()).toMatchInlineSnapshot(`
    [
      "BRIDGE_DESCRIPTION",
      "BRIDGE_NAME",
      "BRIDGE_VERSION",
      "BackendError",
      "CLOSE_GOING_AWAY",
      "CLOSE_MESSAGE_TOO_BIG",
      "DEFAULT_MAX_BUFFERED_BYTES",
      "DEFAULT_MAX_CONNECTIONS_PER_IP",
      "DEFAULT_MAX_FRAME_BYTES",
      "DEFAULT_MAX_MESSAGES_PER_SECOND",
      "DEFAULT_MAX_QUEUED_BYTES",
      "DEFAULT_MAX_QUEUE_LENGTH",
      "DEFAULT_MAX_TOPICS_PER_SOCKET",
      "DEFAULT_MAX_TOPIC_LENGTH",
      "DEFAULT_MAX_TOTAL_QUEUED_BYTES",
      "DEFAULT_MAX_WEBHOOKS_IN_FLIGHT",
      "DEFAULT_MAX_WEBHOOKS_PER_TOPIC",
      "DEFAULT_MESSAGE_BURST",
      "DEFAULT_PING_INTERVAL_MS",
      "DEFAULT_REDIS_KEY_PREFIX",
      "DEFAULT_SWEEP_INTERVAL_MS",
      "DEFAULT_WEBHOOK_TIMEOUT_MS",
      "DEFAULT_WEBHOOK_TTL_SECONDS",
      "InvalidBridgeOptionsError",
      "InvalidWebhookError",
      "MAX_HTTP_BODY_BYTES",
      "MAX_WEBHOOK_URL_LENGTH",
      "WebhookRefusedError",
      "attachBridge",
      "createBridge",
      "createBridgeMetrics",
      "createBridgeServer",
      "createMemoryBackend",
      "createRedisBackend",
      "createWebhookNotifier",
      "handleHttpRequest",
      "isPrivateAddress",
      "resolveBridgeOptions",
    ]
  `)
})
