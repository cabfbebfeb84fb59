import {
  DEFAULT_MAX_BUFFERED_BYTES,
  DEFAULT_MAX_BUFFERED_BYTES_PER_IP,
  DEFAULT_MAX_CONNECTIONS_PER_IP,
  DEFAULT_MAX_FRAME_BYTES,
  DEFAULT_MAX_MESSAGES_PER_SECOND,
  DEFAULT_MAX_MESSAGES_PER_SECOND_PER_IP,
  DEFAULT_MAX_QUEUE_LENGTH,
  DEFAULT_MAX_QUEUED_BYTES,
  DEFAULT_MAX_QUEUED_BYTES_PER_IP,
  DEFAULT_MAX_READ_BYTES_PER_SECOND_PER_IP,
  DEFAULT_MAX_TOPIC_LENGTH,
  DEFAULT_MAX_TOPICS_PER_SOCKET,
  DEFAULT_MAX_WEBHOOK_REGISTRATIONS_PER_MINUTE_PER_IP,
  DEFAULT_MAX_WEBHOOKS_PER_TOPIC,
  DEFAULT_MESSAGE_BURST,
  DEFAULT_MESSAGE_BURST_PER_IP,
  DEFAULT_MESSAGE_TTL_SECONDS,
  DEFAULT_PING_INTERVAL_MS,
  DEFAULT_READ_BURST_BYTES_PER_IP,
  DEFAULT_WEBHOOK_TTL_SECONDS,
} from './constants.js'
import type { CreateBridgeParameters } from './createBridge.js'
import { InvalidBridgeOptionsError } from './errors.js'

/** Options of a bridge after defaults are applied. */
export type BridgeOptions = {
  -readonly [key in keyof Omit<
    CreateBridgeParameters,
    'backend' | 'logger' | 'webhooks' | 'processMetrics'
  >]-?: NonNullable<CreateBridgeParameters[key]>
}

/**
 * Applies the defaults to a bridge's parameters and checks them; throws `InvalidBridgeOptionsError` on a value out
 * of range.
 */
export function resolveBridgeOptions(parameters: CreateBridgeParameters): BridgeOptions {
  const options: BridgeOptions = {
    ttlSeconds: parameters.ttlSeconds ?? DEFAULT_MESSAGE_TTL_SECONDS,
    maxQueueLength: parameters.maxQueueLength ?? DEFAULT_MAX_QUEUE_LENGTH,
    maxQueuedBytes: parameters.maxQueuedBytes ?? DEFAULT_MAX_QUEUED_BYTES,
    maxFrameBytes: parameters.maxFrameBytes ?? DEFAULT_MAX_FRAME_BYTES,
    maxTopicsPerSocket: parameters.maxTopicsPerSocket ?? DEFAULT_MAX_TOPICS_PER_SOCKET,
    maxTopicLength: parameters.maxTopicLength ?? DEFAULT_MAX_TOPIC_LENGTH,
    maxConnectionsPerIp: parameters.maxConnectionsPerIp ?? DEFAULT_MAX_CONNECTIONS_PER_IP,
    maxMessagesPerSecond: parameters.maxMessagesPerSecond ?? DEFAULT_MAX_MESSAGES_PER_SECOND,
    messageBurst: parameters.messageBurst ?? DEFAULT_MESSAGE_BURST,
    maxMessagesPerSecondPerIp: parameters.maxMessagesPerSecondPerIp ?? DEFAULT_MAX_MESSAGES_PER_SECOND_PER_IP,
    messageBurstPerIp: parameters.messageBurstPerIp ?? DEFAULT_MESSAGE_BURST_PER_IP,
    maxQueuedBytesPerIp: parameters.maxQueuedBytesPerIp ?? DEFAULT_MAX_QUEUED_BYTES_PER_IP,
    maxWebhookRegistrationsPerMinutePerIp:
      parameters.maxWebhookRegistrationsPerMinutePerIp ?? DEFAULT_MAX_WEBHOOK_REGISTRATIONS_PER_MINUTE_PER_IP,
    maxReadBytesPerSecondPerIp:
      parameters.maxReadBytesPerSecondPerIp ?? DEFAULT_MAX_READ_BYTES_PER_SECOND_PER_IP,
    readBurstBytesPerIp: parameters.readBurstBytesPerIp ?? DEFAULT_READ_BURST_BYTES_PER_IP,
    maxBufferedBytes: parameters.maxBufferedBytes ?? DEFAULT_MAX_BUFFERED_BYTES,
    maxBufferedBytesPerIp: parameters.maxBufferedBytesPerIp ?? DEFAULT_MAX_BUFFERED_BYTES_PER_IP,
    pingIntervalMs: parameters.pingIntervalMs ?? DEFAULT_PING_INTERVAL_MS,
    maxWebhooksPerTopic: parameters.maxWebhooksPerTopic ?? DEFAULT_MAX_WEBHOOKS_PER_TOPIC,
    webhookTtlSeconds: parameters.webhookTtlSeconds ?? DEFAULT_WEBHOOK_TTL_SECONDS,
    trustProxy: parameters.trustProxy ?? false,
  }
  // Zero means "no limit" only where a limit can be switched off; elsewhere it would silently break relaying.
  const mayBeZero = new Set([
    'maxConnectionsPerIp',
    'maxMessagesPerSecond',
    'maxMessagesPerSecondPerIp',
    'maxWebhookRegistrationsPerMinutePerIp',
    'maxReadBytesPerSecondPerIp',
  ])
  for (const [name, value] of Object.entries(options)) {
    if (typeof value === 'boolean') continue
    if (!Number.isFinite(value) || value < 0 || (value === 0 && !mayBeZero.has(name)))
      throw new InvalidBridgeOptionsError(`Invalid bridge option ${name}: ${String(value)}`, {
        details: mayBeZero.has(name) ? 'expected a number ≥ 0' : 'expected a number > 0',
      })
  }
  if (options.maxMessagesPerSecond > 0 && options.messageBurst < 1)
    throw new InvalidBridgeOptionsError(`Invalid bridge option messageBurst: ${options.messageBurst}`)
  if (options.maxMessagesPerSecondPerIp > 0 && options.messageBurstPerIp < 1)
    throw new InvalidBridgeOptionsError(
      `Invalid bridge option messageBurstPerIp: ${options.messageBurstPerIp}`,
    )
  return options
}
