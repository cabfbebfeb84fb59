import { type Hex, serializeErc6492Signature } from 'viem'
import { ACCOUNT_FACTORY_ADDRESS } from './constants.js'
import { getSmartAccountFactoryData, type SmartAccountParameters } from './getSmartAccountAddress.js'

/** Parameters of {@link toSmartAccountSignature}. */
export type ToSmartAccountSignatureParameters = SmartAccountParameters & {
  /** The owner's signature over the hash the verifier checks (an EIP-191 or EIP-712 hash), r ‖ s ‖ v. */
  signature: Hex
  /** Whether the account has code: an account not deployed yet signs with an EIP-6492 wrapper. */
  deployed: boolean
}

/**
 * The account's signature from its owner's: `PairlinkAccount.isValidSignature(hash, signature)` accepts the owner's
 * 65-byte signature of `hash` as it is (EIP-1271); for an account not deployed yet it is wrapped with the factory and
 * its deploy call (EIP-6492), so a verifier can deploy it in a simulation first.
 *
 * @example
 * const signature = toSmartAccountSignature({
 *   owner: owner.address,
 *   signature: await owner.signMessage({ message }),
 *   deployed: false,
 * })
 */
export function toSmartAccountSignature(parameters: ToSmartAccountSignatureParameters): Hex {
  const { signature, deployed, factory = ACCOUNT_FACTORY_ADDRESS } = parameters
  if (deployed) return signature
  return serializeErc6492Signature({
    address: factory,
    data: getSmartAccountFactoryData(parameters),
    signature,
  })
}
