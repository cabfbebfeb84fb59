import type { Address } from 'viem'
import { ACCOUNT_FACTORY_ADDRESS } from './constants.js'
import { type DeployParameters, deployAccountFactory, deployOnce } from './deployAccountFactory.js'
import {
  getSmartAccountAddress,
  getSmartAccountFactoryData,
  type SmartAccountParameters,
} from './getSmartAccountAddress.js'

/** Parameters of {@link deploySmartAccount}. */
export type DeploySmartAccountParameters = DeployParameters & SmartAccountParameters

/**
 * Deploys the smart account through its factory (the factory first, when it is the default one and missing), unless
 * it is deployed already; resolves with its address. Throws `SmartAccountDeployError`.
 *
 * @example
 * const address = await deploySmartAccount({ url, from: owner, owner: owner.address })
 */
export async function deploySmartAccount(parameters: DeploySmartAccountParameters): Promise<Address> {
  const address = getSmartAccountAddress(parameters)
  const factory = parameters.factory ?? ACCOUNT_FACTORY_ADDRESS
  await deployOnce(parameters, address, async () => {
    if (factory === ACCOUNT_FACTORY_ADDRESS) await deployAccountFactory(parameters)
    return { to: factory, data: getSmartAccountFactoryData(parameters) }
  })
  return address
}
