// The v2 side of a WebSocket upgrade, before any socket exists: the token, the project and the page's origin.
import type { IncomingMessage } from 'node:http'
import { RELAY_REFUSAL_CLOSE_CODE } from '@pairlink/protocol/v2'
import { InvalidBridgeOptionsError } from '../errors.js'
import type { Logger } from '../logger.js'
import { RelayAuthError, verifyRelayJwt } from './auth.js'
import type { Relay } from './relayTypes.js'

/** One v2 upgrade as the relay decided it (never the token): what `onRelayUpgrade` receives. */
export type RelayUpgradeAttempt = {
  /** When it was decided, ms since the epoch. */
  time: number
  /** The `projectId` query parameter, `null` when absent. */
  projectId: string | null
  /** The `Origin` header, `undefined` when absent. */
  origin: string | undefined
  outcome: 'open' | 'refused'
  /** Why it was refused (the close reason or the HTTP body). */
  reason?: string | undefined
}

/** How to answer a v2 upgrade: accept it for `clientId`, or refuse it in the relay's refusal style. */
export type RelayUpgradeDecision =
  | { clientId: string }
  | { refused: { status: string; body: string } }
  | { closed: { code: number; reason: string } }

/** Options of {@link createRelayUpgrade}. */
export type RelayUpgradeParameters = {
  /** The configured public relay URLs; empty: the server's listening addresses (`listening`). */
  relayUrls: readonly string[]
  /** `ws://host:port` URLs the server listens on, read at each upgrade (port 0 is known only once it listens). */
  listening: () => readonly string[]
  strictAudience: boolean
  logger: Logger
  onRelayUpgrade: ((attempt: RelayUpgradeAttempt) => void) | undefined
}

/**
 * Decides v2 upgrades for a relay: the token first (401 / close "Unauthorized: …"), then the project id and the page's
 * origin (403 / close with WalletConnect's reasons), counted in the relay's counters and logged without the token.
 *
 * @throws {InvalidBridgeOptionsError} for `strictAudience` without any relay URL (no token could pass).
 */
export function createRelayUpgrade(
  relay: Relay,
  parameters: RelayUpgradeParameters,
): (request: IncomingMessage, search: URLSearchParams) => RelayUpgradeDecision {
  const { relayUrls, listening, strictAudience, logger, onRelayUpgrade } = parameters
  if (strictAudience && relayUrls.length === 0)
    throw new InvalidBridgeOptionsError(
      'strictAudience needs relayUrls: the URLs a token aud may name exactly',
    )
  const { counts } = relay

  return (request, search) => {
    const projectId = search.get('projectId')
    const origin = request.headers.origin
    const report = (outcome: RelayUpgradeAttempt['outcome'], reason?: string) =>
      onRelayUpgrade?.({ time: Date.now(), projectId, origin, outcome, reason })
    const refuse = (status: string, body: string, closeReason: string): RelayUpgradeDecision => {
      counts.authRefusals++
      const close = relay.refusal === 'close'
      logger.info({ reason: close ? closeReason : body, origin }, 'v2 upgrade refused')
      report('refused', close ? closeReason : body)
      return close
        ? { closed: { code: RELAY_REFUSAL_CLOSE_CODE, reason: closeReason } }
        : { refused: { status, body } }
    }

    let clientId: string
    try {
      // This relay's own names only: a `Host` header naming another relay must not make that relay's tokens good here.
      clientId = verifyRelayJwt({
        token: search.get('auth'),
        audiences: relayUrls.length > 0 ? relayUrls : listening(),
        strict: strictAudience,
        maxLifetimeSeconds: relay.limits.maxTokenLifetimeSeconds,
      }).clientId
    } catch (error) {
      if (!(error instanceof RelayAuthError)) throw error
      return refuse('401 Unauthorized', error.message, `Unauthorized: ${error.message}`)
    }
    const refused = relay.admit(projectId, origin)
    if (refused) {
      if (refused.kind === 'origin') counts.originRefusals++
      else counts.projectRefusals++
      return refuse('403 Forbidden', refused.body, refused.reason)
    }
    report('open')
    return { clientId }
  }
}
