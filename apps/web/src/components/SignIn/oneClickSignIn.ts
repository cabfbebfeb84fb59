import type { Cacao } from '@pairlink/protocol/v2'
import type { V2AuthenticateParameters } from '@pairlink/provider'
import { getNonce, type SignedInAccount, verifyCacao } from '../../serverApi.js'
import { SIGN_IN_STATEMENT } from './signIn.js'

/**
 * The sign-in a v2 connect asks for with the session (WalletConnect's one-click auth): the server's nonce, this page
 * as domain and URI, the app's statement, and the nonce's own expiry so the wallet shows how long it is good for.
 * `undefined` when the server gives no nonce (down, rate-limited): the connect then goes on without a sign-in.
 *
 * @example
 * const authenticate = await requestOneClickSignIn()
 * await client.connect({ chainId, ...(authenticate ? { authenticate } : {}) })
 */
export async function requestOneClickSignIn(): Promise<V2AuthenticateParameters | undefined> {
  try {
    const { nonce, expiresAt } = await getNonce()
    const expires = new Date(expiresAt)
    return {
      nonce,
      statement: SIGN_IN_STATEMENT,
      domain: location.host,
      uri: location.origin,
      ...(Number.isNaN(expires.getTime()) ? {} : { exp: expires.toISOString() }),
      // The server checks every CACAO (an account's key, or a smart account's through its node) before anyone is
      // signed in; here one it refuses leaves the wallet connected and signed out, in the server's words.
      verifyCacao: () => true,
    }
  } catch {
    return undefined
  }
}

/**
 * Signs in with the CACAOs a wallet answered a connect with: the one for the server's chain (else the first, which
 * the server refuses in its own words) goes to `POST /api/verify`. Rejects with the server's `ServerError`.
 *
 * @example
 * const account = await signInWithCacaos(cacaos, config.chainId)
 */
export function signInWithCacaos(cacaos: readonly Cacao[], chainId: number): Promise<SignedInAccount> {
  // `iss` is `did:pkh:eip155:<chain>:<address>` (CAIP-10 in a DID).
  const cacao = cacaos.find((c) => c.p.iss.split(':')[3] === String(chainId)) ?? cacaos[0]
  if (!cacao) return Promise.reject(new Error('The wallet answered with no sign-in'))
  return verifyCacao(cacao)
}
