import { type Anvil, rpc, startAnvil } from '@pairlink/test-kit/anvil'
import { getContractAddress, isAddressEqual } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { ACCOUNT_FACTORY_ADDRESS, ACCOUNT_FACTORY_SALT, CREATE2_DEPLOYER_ADDRESS } from './constants.js'
import { PairlinkAccountFactory } from './contracts.js'
import { deployAccountFactory } from './deployAccountFactory.js'

// anvil's dev account #1: funded on a fresh chain.
const funded = privateKeyToAccount('0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d')

let anvil: Anvil
beforeAll(async () => {
  anvil = await startAnvil({ blockTime: 0, accountFactory: false })
})
afterAll(() => anvil?.stop())

test('default: ACCOUNT_FACTORY_ADDRESS is CREATE2 of the deployer, the salt and the factory’s creation code', () => {
  const computed = getContractAddress({
    opcode: 'CREATE2',
    from: CREATE2_DEPLOYER_ADDRESS,
    salt: ACCOUNT_FACTORY_SALT,
    bytecode: PairlinkAccountFactory.bytecode,
  })
  expect(computed).toBe(ACCOUNT_FACTORY_ADDRESS)
})

test('behavior: on a fresh anvil the CREATE2 deployer puts the factory at ACCOUNT_FACTORY_ADDRESS, once', async () => {
  expect(await rpc(anvil.url, 'eth_getCode', [ACCOUNT_FACTORY_ADDRESS, 'latest'])).toBe('0x')
  const address = await deployAccountFactory({ url: anvil.url, from: funded })
  expect(isAddressEqual(address, ACCOUNT_FACTORY_ADDRESS)).toBe(true)
  expect(await rpc(anvil.url, 'eth_getCode', [ACCOUNT_FACTORY_ADDRESS, 'latest'])).not.toBe('0x')
  const nonce = await rpc(anvil.url, 'eth_getTransactionCount', [funded.address, 'latest'])
  await deployAccountFactory({ url: anvil.url, from: funded })
  expect(await rpc(anvil.url, 'eth_getTransactionCount', [funded.address, 'latest'])).toBe(nonce)
})

test('behavior: startAnvil deploys the factory without touching a dev account', async () => {
  const chain = await startAnvil({ blockTime: 0 })
  try {
    expect(await rpc(chain.url, 'eth_getCode', [ACCOUNT_FACTORY_ADDRESS, 'latest'])).not.toBe('0x')
    expect(await rpc(chain.url, 'eth_getTransactionCount', [funded.address, 'latest'])).toBe('0x0')
  } finally {
    await chain.stop()
  }
})
