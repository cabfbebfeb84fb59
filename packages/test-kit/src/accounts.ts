// Smart accounts on a dev chain for tests: @pairlink/smart-account's PairlinkAccount (an EIP-1271 account with one
// owner key) under a CREATE2 factory, so that an account not deployed yet signs with an EIP-6492 wrapper naming it.
import {
  ACCOUNT_FACTORY_ADDRESS,
  deploySmartAccount as deployAccount,
  deployAccountFactory as deployFactory,
  getSmartAccountAddress,
  toSmartAccountSignature,
} from '@pairlink/smart-account'
import type { Address, Hex } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { ANVIL_ACCOUNT } from './anvil.js'

/** One smart account: its factory, owner key and salt fix its address, deployed or not. */
export type SmartAccount = {
  factory: Address
  /** The owner's private key: what signs for the account. */
  owner: Hex
  salt: Hex
}

const parameters = (account: SmartAccount) => ({
  owner: privateKeyToAccount(account.owner).address,
  salt: account.salt,
  factory: account.factory,
})

/**
 * The account factory on the dev chain at `url`: at its fixed address, deployed by `startAnvil` already (or here,
 * from a funded dev key, when that anvil was started without it).
 */
export async function deployAccountFactory(
  url: string,
  deployer: Hex = ANVIL_ACCOUNT.privateKey,
): Promise<Address> {
  await deployFactory({ url, from: privateKeyToAccount(deployer) })
  return ACCOUNT_FACTORY_ADDRESS
}

/** The account's address (CREATE2 under its factory), whether it is deployed or not. */
export function smartAccountAddress(account: SmartAccount): Address {
  return getSmartAccountAddress(parameters(account))
}

/** Deploys the account through its factory from a funded dev key; answers its address once mined. */
export async function deploySmartAccount(
  url: string,
  account: SmartAccount,
  deployer: Hex = ANVIL_ACCOUNT.privateKey,
): Promise<Address> {
  return deployAccount({ url, from: privateKeyToAccount(deployer), ...parameters(account) })
}

/**
 * Signs `message` (EIP-191, as `personal_sign`) for the account: its owner's signature, which the account's
 * `isValidSignature` accepts (EIP-1271); wrapped with the factory call (EIP-6492) when `deployed` is false.
 */
export async function signAsSmartAccount(
  account: SmartAccount,
  message: string,
  options: { deployed: boolean },
): Promise<Hex> {
  const signature = await privateKeyToAccount(account.owner).signMessage({ message })
  return toSmartAccountSignature({ ...parameters(account), signature, deployed: options.deployed })
}
