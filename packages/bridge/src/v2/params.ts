// Validation of the relay's request params: every check runs before a handler changes anything.
import type { RelayContext } from './relayContext.js'

/** Bad params: answered with -32602 and `Invalid params: {message}`. */
export class ParamsError extends Error {}
/** Bad params whose message is answered as is (-32602): a text clients may compare, like the hosted relay's. */
export class VerbatimParamsError extends ParamsError {}

/** The message size limits `checkPublish` applies (`limits`: the attestation's). */
export type MessageLimits = Pick<RelayContext, 'maxMessageLength' | 'maxMessageLengthByTag'> & {
  readonly limits: Pick<RelayContext['limits'], 'maxAttestationLength'>
}
/** A limit refused the request: answered with -32000 (retryable). */
export class LimitError extends Error {}

const TOPIC = /^[0-9a-f]{64}$/
/** Most topics, subscriptions or messages in one batch request. */
export const BATCH_LIMIT = 500

/** A checked `irn_publish` (or the message of a `wc_*Session`). */
export type Publish = {
  topic: string
  message: string
  ttl: number
  tag: number
  attestation?: string | undefined
}

export function object(value: unknown): Record<string, unknown> {
  if (!value || typeof value !== 'object' || Array.isArray(value))
    throw new ParamsError('params must be an object')
  return value as Record<string, unknown>
}

export function checkTopic(topic: unknown): string {
  if (typeof topic !== 'string' || !TOPIC.test(topic))
    throw new ParamsError('topic must be 64 lowercase hex digits')
  return topic
}

/**
 * The topics of a batch, each once, in the order first named: a topic repeated in one request would multiply the
 * relay's work (and a fetch's answer) for nothing.
 */
export function checkTopics(topics: unknown): string[] {
  if (!Array.isArray(topics) || topics.length > BATCH_LIMIT)
    throw new ParamsError(`topics must be an array of at most ${BATCH_LIMIT}`)
  return [...new Set(topics.map(checkTopic))]
}

/**
 * Checks one message to publish. `known`: topics checked before (this node's subscribed ones, each checked when
 * subscribed); a topic found there is not tested against the pattern again.
 */
export function checkPublish(
  value: unknown,
  limits: MessageLimits,
  known?: ReadonlyMap<string, unknown>,
): Publish {
  const { maxMessageLength, maxMessageLengthByTag } = limits
  const params = object(value)
  const topic =
    typeof params.topic === 'string' && known?.has(params.topic) ? params.topic : checkTopic(params.topic)
  const { message, ttl, tag, attestation } = params
  if (typeof message !== 'string' || message.length === 0 || message.length > maxMessageLength)
    throw new ParamsError('message must be a non-empty string')
  if (typeof ttl !== 'number' || !Number.isInteger(ttl) || ttl < 1)
    throw new ParamsError('ttl must be a positive integer')
  if (tag !== undefined && (typeof tag !== 'number' || !Number.isInteger(tag) || tag < 0))
    throw new ParamsError('tag must be a non-negative integer')
  // Kept and pushed with the message for its ttl: bounded like it, and counted by the budgets (storedBytes).
  if (
    attestation !== undefined &&
    (typeof attestation !== 'string' || attestation.length > limits.limits.maxAttestationLength)
  )
    throw new ParamsError(`attestation must be a string of at most ${limits.limits.maxAttestationLength}`)
  const max = maxMessageLengthByTag?.[tag ?? 0]
  if (max !== undefined && message.length > max)
    throw new VerbatimParamsError(`Maximum size for tag ${tag ?? 0} is ${max}`)
  return { topic, message, ttl, tag: tag ?? 0, attestation }
}
