/**
 * Whether a signature is the account's: its own key's, checked here with no request (`byKey`), else a smart
 * account's, which only the chain can say (`byChain`: viem's public-client verification, EIP-1271 for a deployed
 * contract, EIP-6492 for one not deployed yet: one `eth_call` through the server's `/rpc`). A check that throws (a
 * signature of no key's shape, the node unreachable) counts as not verified.
 *
 * @example
 * await verifySignature(() => verifyMessage(args), client && (() => client.verifyMessage(args)))
 */
export async function verifySignature(
  byKey: () => Promise<boolean>,
  byChain: (() => Promise<boolean>) | undefined,
): Promise<boolean> {
  if (await byKey().catch(() => false)) return true
  return byChain ? byChain().catch(() => false) : false
}
