import { parsePairingUri } from '@pairlink/protocol/v2'
import type { SignClient } from '../createSignClient.js'
import { SIGN_ERRORS, SignError } from '../errors.js'
import { expiryIn, getInternal, save, subscribe } from '../internal.js'
import type { Pairing } from '../types.js'

/** Parameters of {@link pair}. */
export type PairParameters = {
  /** The dapp's `wc:…@2?…` URI (scanned, pasted or from a deep link). Never log it: it holds the key. */
  uri: string
}

/**
 * Wallet: joins the pairing of a dapp's URI and subscribes to it; the dapp's proposal then arrives as
 * `session_proposal` (the relay keeps it until the wallet subscribes). Throws the protocol's `InvalidUriError` for a
 * malformed URI, `ExpiredUriError` (`Pairing URI has expired`) for one past its `expiryTimestamp`, and a
 * {@link SignError} `ERR_PAIRING_EXISTS` for a URI already used for a session.
 *
 * @example
 * client.on('session_proposal', ({ id, params }) => approve(client, { id, namespaces }))
 * await pair(client, { uri })
 */
export async function pair(client: SignClient, parameters: PairParameters): Promise<Pairing> {
  const internal = getInternal(client)
  await internal.ready
  const { topic, symKey, expiryTimestamp, methods } = parsePairingUri(parameters.uri)
  const { pairings, keys } = internal.state
  if (pairings[topic]?.active) throw new SignError(SIGN_ERRORS.PAIRING_EXISTS)
  // The SDK gives a URI without an expiry five minutes.
  const pairing: Pairing = {
    topic,
    expiry: expiryTimestamp ?? expiryIn(300),
    active: false,
    ...(methods ? { methods } : {}),
  }
  pairings[topic] = pairing
  keys[topic] = symKey
  save(internal)
  await subscribe(internal, topic)
  return pairing
}
