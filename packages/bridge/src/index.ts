export { type AttachBridgeParameters, type AttachBridgeReturnType, attachBridge } from './attachBridge.js'
export type { Backend, BackendContext, QueueLimits } from './backends/backend.js'
export { type CreateMemoryBackendParameters, createMemoryBackend } from './backends/memory.js'
export {
  DEFAULT_MAX_BUFFERED_BYTES,
  DEFAULT_MAX_CONNECTIONS_PER_IP,
  DEFAULT_MAX_FRAME_BYTES,
  DEFAULT_MAX_MESSAGES_PER_SECOND,
  DEFAULT_MAX_MESSAGES_PER_SECOND_PER_IP,
  DEFAULT_MAX_QUEUE_LENGTH,
  DEFAULT_MAX_QUEUED_BYTES,
  DEFAULT_MAX_QUEUED_BYTES_PER_IP,
  DEFAULT_MAX_TOPIC_LENGTH,
  DEFAULT_MAX_TOPICS_PER_SOCKET,
  DEFAULT_MAX_TOTAL_QUEUED_BYTES,
  DEFAULT_MAX_WEBHOOK_REGISTRATIONS_PER_MINUTE_PER_IP,
  DEFAULT_MAX_WEBHOOKS_IN_FLIGHT,
  DEFAULT_MAX_WEBHOOKS_PER_TOPIC,
  DEFAULT_MESSAGE_BURST,
  DEFAULT_MESSAGE_BURST_PER_IP,
  DEFAULT_MESSAGE_TTL_SECONDS,
  DEFAULT_PING_INTERVAL_MS,
  DEFAULT_SWEEP_INTERVAL_MS,
  DEFAULT_WEBHOOK_TIMEOUT_MS,
  DEFAULT_WEBHOOK_TTL_SECONDS,
} from './constants.js'
export {
  type Bridge,
  type Connection,
  type CreateBridgeParameters,
  createBridge,
  type Socket,
} from './createBridge.js'
export {
  BackendError,
  InvalidBridgeOptionsError,
  InvalidWebhookError,
  WebhookRateLimitedError,
  WebhookRefusedError,
} from './errors.js'
export { listeningHosts, listeningNames } from './listening.js'
export type { Logger } from './logger.js'
export {
  type LinkSettingNames,
  type ParseLinkOptionsParameters,
  parseLinkOptions,
} from './mesh/linkOptions.js'
export type { BridgeCounts, BridgeMetrics } from './metrics.js'
export {
  DEFAULT_REDIS_WAIT_TIMEOUT_MS,
  isSentinelUrl,
  type ParseRedisOptionsParameters,
  parseRedisOptions,
  type RedisConfig,
  type RedisSettingNames,
  type ReplicaWait,
  redactRedisUrl,
} from './redisOptions.js'
export type { BridgeOptions } from './resolveBridgeOptions.js'
export {
  type CreateBridgeServerParameters,
  type CreateBridgeServerReturnType,
  createBridgeServer,
} from './server.js'
export {
  RelayAuthError,
  type RelayJwtClaims,
  type VerifyRelayJwtParameters,
  verifyRelayJwt,
} from './v2/auth.js'
export {
  type CreateRelayParameters,
  createRelay,
  DEFAULT_RELAY_MAX_TTL_SECONDS,
  type Relay,
  type RelayConnection,
  type RelayCounts,
  type RelaySocket,
} from './v2/createRelay.js'
export { registerRelayMetrics } from './v2/metrics.js'
export {
  DEFAULT_RELAY_MAX_ANSWER_BYTES,
  DEFAULT_RELAY_MAX_ATTESTATION_LENGTH,
  DEFAULT_RELAY_MAX_BYTES_PER_TOPIC,
  DEFAULT_RELAY_MAX_MESSAGE_LENGTH,
  DEFAULT_RELAY_MAX_MESSAGES_PER_TOPIC,
  DEFAULT_RELAY_MAX_QUEUED_BYTES_PER_NETWORK,
  DEFAULT_RELAY_MAX_REQUESTS_PER_SECOND,
  DEFAULT_RELAY_MAX_REQUESTS_PER_SECOND_PER_IP,
  DEFAULT_RELAY_MAX_TOKEN_LIFETIME_SECONDS,
  DEFAULT_RELAY_MAX_TOPICS_PER_SOCKET,
  DEFAULT_RELAY_MAX_TOTAL_BYTES,
  DEFAULT_RELAY_REQUEST_BURST,
  DEFAULT_RELAY_REQUEST_BURST_PER_IP,
  DEFAULT_RELAY_SWEEP_INTERVAL_MS,
  RELAY_LIMITS,
  type RelayLimit,
  type RelayLimitKey,
  type RelayLimits,
  readRelayLimits,
  relayLimitVariable,
  resolveRelayLimits,
} from './v2/relayOptions.js'
export type {
  RelayStore,
  RelayStoreContext,
  RelayStoreLimits,
  StoredMessage,
  StoreRefusal,
  SweepResult,
} from './v2/store.js'
export type { RelayUpgradeAttempt } from './v2/upgrade.js'
export type { WebhookParameters } from './webhooks.js'
