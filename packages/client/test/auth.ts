import { createRequire } from 'node:module'
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

// The published SDK's helpers (@walletconnect/utils 2.25.0, as sign-client 2.25.0 resolves it), as a wallet built on
// it answers `session_authenticate`.
const fromSignClient = createRequire(createRequire(import.meta.url).resolve('@walletconnect/sign-client'))
const sdkUtils = fromSignClient('@walletconnect/utils') as {
  populateAuthPayload(p: { authPayload: AuthPayload; chains: string[]; methods: string[] }): AuthPayload
  buildAuthObject(payload: AuthPayload, signature: { t: string; s: string }, iss: string): Cacao
}

type SdkAuthWallet = {
  formatAuthMessage(p: { request: AuthPayload; iss: string }): string
  approveSessionAuthenticate(p: { id: number; auths: Cacao[] }): Promise<{ session?: unknown }>
}

/**
 * How an SDK wallet (sign-client or WalletKit) approves a one-click auth request, as WalletConnect's docs show it: the
 * request narrowed to the chains and methods it supports (`populateAuthPayload`), one CACAO per chain
 * (`buildAuthObject`), signed by the dev account.
 */
export async function approveAsSdkWallet(
  wallet: SdkAuthWallet,
  { id, params }: { id: number; params: { authPayload: AuthPayload } },
  supported: { chains: string[]; methods: string[] },
) {
  const authPayload = sdkUtils.populateAuthPayload({ authPayload: params.authPayload, ...supported })
  const auths: Cacao[] = []
  for (const chain of authPayload.chains) {
    const iss = `did:pkh:${chain}:${devAccount.address}`
    const message = wallet.formatAuthMessage({ request: authPayload, iss })
    const s = await devAccount.signMessage({ message })
    auths.push(sdkUtils.buildAuthObject(authPayload, { t: 'eip191', s }, iss))
  }
  return wallet.approveSessionAuthenticate({ id, auths })
}
