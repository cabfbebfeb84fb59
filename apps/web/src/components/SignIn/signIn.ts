import { verifyMessage, type WalletClient } from 'viem'
import { createSiweMessage, parseSiweMessage, validateSiweMessage } from 'viem/siwe'

/** Parameters of {@link signIn}. */
export type SignInParameters = {
  walletClient: WalletClient
  address: `0x${string}`
  chainId: number
  /** The site asking (`location.host`). */
  domain: string
  /** The page asking (`location.origin`). */
  uri: string
  nonce: string
}

/**
 * Has the wallet sign an EIP-4361 message for this site and checks it: the message is for this domain and nonce,
 * still valid, and the signature recovers to the account. Resolves `true` when all hold.
 *
 * @example
 * const ok = await signIn({ walletClient, address, chainId: 31337, domain: location.host, uri: location.origin, nonce })
 */
export async function signIn(parameters: SignInParameters): Promise<boolean> {
  const { walletClient, address, chainId, domain, uri, nonce } = parameters
  const message = createSiweMessage({
    address,
    chainId,
    domain,
    nonce,
    uri,
    version: '1',
    statement: 'Sign in to Pairlink.',
    issuedAt: new Date(),
  })
  const signature = await walletClient.signMessage({ account: address, message })
  const valid = validateSiweMessage({ message: parseSiweMessage(message), address, domain, nonce })
  return valid && (await verifyMessage({ address, message, signature }))
}
