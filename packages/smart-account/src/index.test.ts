import { expect, test } from 'vitest'
import * as smartAccount from './index.js'

test('exports', () => {
  expect(Object.keys(smartAccount).sort()).toMatchInlineSnapshot(`
    [
      "ACCOUNT_FACTORY_ADDRESS",
      "ACCOUNT_FACTORY_SALT",
      "CREATE2_DEPLOYER_ADDRESS",
      "PairlinkAccount",
      "PairlinkAccountFactory",
      "SMART_ACCOUNT_SALT",
      "SmartAccountDeployError",
      "deployAccountFactory",
      "deploySmartAccount",
      "getSmartAccountAddress",
      "getSmartAccountFactoryData",
      "toSmartAccountSignature",
    ]
  `)
})
