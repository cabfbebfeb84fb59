import type { Address, Hex, LocalAccount } from 'viem'
import { isSmartAccount } from './toSmartAccount.js'

/** What {@link signCacaoMessage} produced: the CACAO's `iss` address and its `s` (CAIP-74). */
export type SignCacaoMessageReturnType = {
  /** The account's address, for `iss = did:pkh:eip155:<chain>:<address>`. */
  address: Address
  signature: Hex
  /** The CACAO's `s.t`: `eip1271` for a smart account (its EIP-6492 wrapper too, when not deployed). */
  type: 'eip191' | 'eip1271'
}

/**
 * Signs a CACAO's SIWE text (EIP-191, as `personal_sign`) as the wallet's current account: its key, or — for a smart
 * account (`toSmartAccount`) — the owner's signature in the form the account's contract checks.
 *
 * @example
 * const { address, signature, type } = await signCacaoMessage(account, formatAuthMessage({ request, iss }))
 * const cacao = { h: { t: 'caip122' }, p, s: { t: type, s: signature } }
 */
export async function signCacaoMessage(
  account: LocalAccount,
  message: string,
): Promise<SignCacaoMessageReturnType> {
  return {
    address: account.address,
    signature: await account.signMessage({ message }),
    type: isSmartAccount(account) ? 'eip1271' : 'eip191',
  }
}
