import { type AuthPayload, type Cacao, formatAuthMessage } from '@pairlink/protocol/v2'
import type { PrivateKeyAccount } from 'viem/accounts'
import { account as devAccount } from './sdk.js'

/**
 * The CACAOs a wallet signs for a one-click auth request, one per chain of `chains` (default: every requested one),
 * as the SDK's `buildAuthObject` writes them: the request's fields, `iss` the account on that chain, an EIP-191
 * signature of {@link formatAuthMessage}.
 */
export async function signCacaos(
  request: AuthPayload,
  options: { chains?: string[]; signer?: PrivateKeyAccount; fields?: Partial<Cacao['p']> } = {},
): Promise<Cacao[]> {
  const { chains = request.chains, signer = devAccount, fields = {} } = options
  const { type: _type, chains: _chains, ...payload } = request
  return Promise.all(
    chains.map(async (chain) => {
      const p = { ...payload, iss: `did:pkh:${chain}:${signer.address}`, ...fields }
      const message = formatAuthMessage({ request: p, iss: p.iss })
      return { h: { t: 'caip122' }, p, s: { t: 'eip191', s: await signer.signMessage({ message }) } }
    }),
  )
}
