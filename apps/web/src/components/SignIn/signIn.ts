import { createSiweMessage } from 'viem/siwe'
import { getNonce, type SignedInAccount, verifySignIn } from '../../serverApi.js'

/** The line the wallet shows above the message's fields. */
export const SIGN_IN_STATEMENT = 'Sign in to Pairlink.'

/** Parameters of {@link buildSignInMessage}. */
export type BuildSignInMessageParameters = {
  address: `0x${string}`
  /** The server's chain (`/api/config`), which it checks the message against. */
  chainId: number
  /** The site asking (`location.host`): the server only accepts its own host. */
  domain: string
  /** The page asking (`location.origin`). */
  uri: string
  /** From `GET /api/nonce`. */
  nonce: string
  issuedAt: Date
  /** The nonce's own expiry, so the wallet shows the person how long the message is good for. */
  expirationTime?: Date | undefined
}

/**
 * The EIP-4361 message the wallet signs to sign in to this server.
 *
 * @example
 * buildSignInMessage({ address, chainId: 31337, domain: location.host, uri: location.origin, nonce, issuedAt: new Date() })
 */
export function buildSignInMessage(parameters: BuildSignInMessageParameters): string {
  const { address, chainId, domain, uri, nonce, issuedAt, expirationTime } = parameters
  return createSiweMessage({
    address,
    chainId,
    domain,
    uri,
    nonce,
    issuedAt,
    version: '1',
    statement: SIGN_IN_STATEMENT,
    ...(expirationTime ? { expirationTime } : {}),
  })
}

/** Parameters of {@link signInWithWallet}. */
export type SignInWithWalletParameters = {
  address: `0x${string}`
  chainId: number
  /** Has the wallet sign the message as `account` (`personal_sign`): wagmi's `signMessageAsync`. */
  signMessage: (parameters: { account: `0x${string}`; message: string }) => Promise<`0x${string}`>
  /**
   * Asked once the wallet has signed: `false` (the person pressed Cancel meanwhile) stops before the server is asked,
   * so a late signature opens no session. @default always wanted
   */
  wanted?: (() => boolean) | undefined
}

/** A signature that came after the person stopped waiting for it: nothing was sent to the server. */
class SignInCancelledError extends Error {
  override name = 'SignInCancelledError'
}

/**
 * Signs in to the server: a nonce from `GET /api/nonce`, the wallet signs the message (`personal_sign`), the server
 * verifies it at `POST /api/verify` and sets the session cookie. Rejects with the wallet's or a `ServerError`, or with
 * {@link SignInCancelledError} when the sign-in is no longer `wanted` once signed.
 *
 * @example
 * const account = await signInWithWallet({ address, chainId: config.chainId, signMessage: signMessageAsync })
 */
export async function signInWithWallet(parameters: SignInWithWalletParameters): Promise<SignedInAccount> {
  const { address, chainId, signMessage } = parameters
  const { nonce, expiresAt } = await getNonce()
  const expires = new Date(expiresAt)
  const message = buildSignInMessage({
    address,
    chainId,
    domain: location.host,
    uri: location.origin,
    nonce,
    issuedAt: new Date(),
    expirationTime: Number.isNaN(expires.getTime()) ? undefined : expires,
  })
  const signature = await signMessage({ account: address, message })
  if (parameters.wanted && !parameters.wanted()) throw new SignInCancelledError('The sign-in was cancelled')
  return verifySignIn(message, signature)
}
