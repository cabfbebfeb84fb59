import { expect, test } from 'vitest'
import * as internal from './internal.js'

test('exports', () => {
  expect(Object.keys(internal).sort()).toMatchInlineSnapshot(`
    [
      "BRIDGE_DESCRIPTION",
      "BRIDGE_NAME",
      "BRIDGE_VERSION",
      "CLOSE_GOING_AWAY",
      "CLOSE_MESSAGE_TOO_BIG",
      "CLOSE_POLICY_VIOLATION",
      "MAX_HTTP_BODY_BYTES",
      "MAX_WEBHOOK_URL_LENGTH",
      "addressKey",
      "createBridgeMetrics",
      "createWebhookNotifier",
      "handleHttpRequest",
      "isPrivateAddress",
      "processLogDestination",
      "resolveBridgeOptions",
    ]
  `)
})
