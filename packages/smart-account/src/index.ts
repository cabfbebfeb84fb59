export {
  ACCOUNT_FACTORY_ADDRESS,
  ACCOUNT_FACTORY_SALT,
  CREATE2_DEPLOYER_ADDRESS,
  SMART_ACCOUNT_SALT,
} from './constants.js'
export { PairlinkAccount, PairlinkAccountFactory } from './contracts.js'
export { type DeployParameters, deployAccountFactory } from './deployAccountFactory.js'
export { type DeploySmartAccountParameters, deploySmartAccount } from './deploySmartAccount.js'
export { SmartAccountDeployError } from './errors.js'
export {
  getSmartAccountAddress,
  getSmartAccountFactoryData,
  type SmartAccountParameters,
} from './getSmartAccountAddress.js'
export { type ToSmartAccountSignatureParameters, toSmartAccountSignature } from './toSmartAccountSignature.js'
