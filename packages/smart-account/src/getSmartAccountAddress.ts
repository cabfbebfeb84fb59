import { type Address, encodeDeployData, encodeFunctionData, getContractAddress, type Hex } from 'viem'
import { ACCOUNT_FACTORY_ADDRESS, SMART_ACCOUNT_SALT } from './constants.js'
import { PairlinkAccount, PairlinkAccountFactory } from './contracts.js'

/** Which smart account: its owner key's address, its salt and its factory fix its address, deployed or not. */
export type SmartAccountParameters = {
  /** The address of the key that signs for the account. */
  owner: Address
  /** @default SMART_ACCOUNT_SALT (zero) */
  salt?: Hex | undefined
  /** @default ACCOUNT_FACTORY_ADDRESS */
  factory?: Address | undefined
}

/**
 * The account's address: CREATE2 of its factory, salt and creation code with the owner as constructor argument, as
 * `PairlinkAccountFactory.addressOf` computes it; the same before and after deployment.
 *
 * @example
 * const address = getSmartAccountAddress({ owner: '0xf39F…2266' })
 */
export function getSmartAccountAddress(parameters: SmartAccountParameters): Address {
  const { owner, salt = SMART_ACCOUNT_SALT, factory = ACCOUNT_FACTORY_ADDRESS } = parameters
  return getContractAddress({
    opcode: 'CREATE2',
    from: factory,
    salt,
    bytecode: encodeDeployData({
      abi: PairlinkAccount.abi,
      bytecode: PairlinkAccount.bytecode,
      args: [owner],
    }),
  })
}

/**
 * The factory call that deploys the account (`deploy(owner, salt)`): what a deployment sends to the factory and what
 * an EIP-6492 signature carries.
 */
export function getSmartAccountFactoryData(parameters: SmartAccountParameters): Hex {
  return encodeFunctionData({
    abi: PairlinkAccountFactory.abi,
    functionName: 'deploy',
    args: [parameters.owner, parameters.salt ?? SMART_ACCOUNT_SALT],
  })
}
