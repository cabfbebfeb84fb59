import { type AuthenticateParameters, authenticate, type SignClient } from '@pairlink/client/v2'

/**
 * One pairing that asks for a session and a sign-in (`authenticate`, with its fallback proposal), as `pairWithModal`
 * runs it. A chunk of its own, loaded on the first `connect({ authenticate })`: the CACAO checks (secp256k1, keccak)
 * stay out of the v2 chunk a plain connect loads.
 *
 * @example
 * const { uri, approval } = await startAuthenticate(client, { chains, domain, uri: origin, nonce })
 */
export async function startAuthenticate(client: SignClient, parameters: AuthenticateParameters) {
  const { uri, response } = await authenticate(client, parameters)
  return { uri, approval: response }
}
