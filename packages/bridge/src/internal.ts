// Parts the bridge's own CLI, tests and benches use; no semver promise covers this entry.

export { addressKey } from './addressKey.js'
export {
  BRIDGE_DESCRIPTION,
  BRIDGE_NAME,
  BRIDGE_VERSION,
  CLOSE_GOING_AWAY,
  CLOSE_MESSAGE_TOO_BIG,
  CLOSE_POLICY_VIOLATION,
  MAX_HTTP_BODY_BYTES,
  MAX_WEBHOOK_URL_LENGTH,
} from './constants.js'
export { type HttpRequest, type HttpResponse, handleHttpRequest } from './http.js'
export { type CreateBridgeMetricsParameters, createBridgeMetrics } from './metrics.js'
export { processLogDestination } from './processLog.js'
export { resolveBridgeOptions } from './resolveBridgeOptions.js'
export {
  createWebhookNotifier,
  isPrivateAddress,
  type WebhookNotifier,
  type WebhookNotifierParameters,
} from './webhooks.js'
