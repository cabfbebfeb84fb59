import { payloadId } from '@pairlink/protocol'
import type { SignClient } from '../createSignClient.js'
import { SDK_ERRORS, SignError } from '../errors.js'
import { getInternal, getSessionOrThrow, publish } from '../internal.js'
import { hasEvent } from '../namespaces.js'

/** Parameters of {@link emit}. */
export type EmitParameters = {
  topic: string
  /** A CAIP-2 chain of the session. */
  chainId: string
  /** `chainChanged` (data: the chain id), `accountsChanged` (data: the addresses), or another event granted. */
  event: { name: string; data: unknown }
}

/**
 * Wallet: sends an event to the dapp (`wc_sessionEvent`; not answered). The event must be granted on that chain.
 *
 * @example
 * await emit(client, { topic, chainId: 'eip155:10', event: { name: 'chainChanged', data: 10 } })
 */
export async function emit(client: SignClient, parameters: EmitParameters): Promise<void> {
  const internal = getInternal(client)
  await internal.ready
  const { topic, chainId, event } = parameters
  const session = getSessionOrThrow(internal, topic)
  if (!hasEvent(session.namespaces, chainId, event?.name))
    throw new SignError({
      ...SDK_ERRORS.UNSUPPORTED_EVENTS,
      message: `${SDK_ERRORS.UNSUPPORTED_EVENTS.message} ${String(event?.name)}`,
    })
  const method = 'wc_sessionEvent'
  await publish(
    internal,
    topic,
    { id: payloadId(), jsonrpc: '2.0', method, params: { event, chainId } },
    method,
  )
}
