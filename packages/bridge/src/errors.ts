import { BaseError } from '@pairlink/protocol'

/** An option of the bridge, its server or its CLI that is out of range or of the wrong type. */
export class InvalidBridgeOptionsError extends BaseError {
  static override code = 'ERR_BRIDGE_OPTIONS_INVALID'
  override name = 'InvalidBridgeOptionsError'
}

/** A push webhook URL that is not an absolute `http:`/`https:` URL the bridge can call. */
export class InvalidWebhookError extends BaseError {
  static override code = 'ERR_BRIDGE_WEBHOOK_INVALID'
  override name = 'InvalidWebhookError'
}

/**
 * A push webhook whose host is, or resolves to, a loopback, private, link-local, unique-local or CGNAT address
 * that no allow-list entry names. Refused so that `POST /subscribe` cannot make the bridge call internal services.
 */
export class WebhookRefusedError extends BaseError {
  static override code = 'ERR_BRIDGE_WEBHOOK_REFUSED'
  override name = 'WebhookRefusedError'
}

/** The backend (Redis) could not be reached or refused a command. */
export class BackendError extends BaseError {
  static override code = 'ERR_BRIDGE_BACKEND'
  override name = 'BackendError'
}

/** An address that registered more push webhooks than `maxWebhookRegistrationsPerMinutePerIp` allows (HTTP 429). */
export class WebhookRateLimitedError extends BaseError {
  static override code = 'ERR_BRIDGE_WEBHOOK_RATE_LIMITED'
  override name = 'WebhookRateLimitedError'
}
