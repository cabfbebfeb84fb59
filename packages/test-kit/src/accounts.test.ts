import { createPublicClient, http, isAddressEqual } from 'viem'
import { generatePrivateKey } from 'viem/accounts'
import { foundry } from 'viem/chains'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import {
  deployAccountFactory,
  deploySmartAccount,
  type SmartAccount,
  signAsSmartAccount,
  smartAccountAddress,
} from './accounts.js'
import { type Anvil, rpc, startAnvil } from './anvil.js'

let anvil: Anvil
let factory: `0x${string}`
beforeAll(async () => {
  anvil = await startAnvil({ blockTime: 0 })
  factory = await deployAccountFactory(anvil.url)
})
afterAll(() => anvil?.stop())

const account = (): SmartAccount => ({ factory, owner: generatePrivateKey(), salt: `0x${'00'.repeat(31)}01` })
const verify = (address: `0x${string}`, message: string, signature: `0x${string}`) =>
  createPublicClient({ chain: foundry, transport: http(anvil.url) }).verifyMessage({
    address,
    message,
    signature,
  })

describe('behavior', () => {
  test('behavior: a deployed account accepts its owner’s signature (EIP-1271) and refuses another key’s', async () => {
    const mine = account()
    const address = await deploySmartAccount(anvil.url, mine)
    expect(isAddressEqual(address, smartAccountAddress(mine))).toBe(true)
    expect(await rpc(anvil.url, 'eth_getCode', [address, 'latest'])).not.toBe('0x')
    expect(await verify(address, 'hello', await signAsSmartAccount(mine, 'hello', { deployed: true }))).toBe(
      true,
    )
    const other = { ...mine, owner: generatePrivateKey() }
    expect(await verify(address, 'hello', await signAsSmartAccount(other, 'hello', { deployed: true }))).toBe(
      false,
    )
  })

  test('behavior: an account not deployed yet signs with an EIP-6492 wrapper; it stays undeployed', async () => {
    const mine = account()
    const address = smartAccountAddress(mine)
    expect(await rpc(anvil.url, 'eth_getCode', [address, 'latest'])).toBe('0x')
    expect(await verify(address, 'hello', await signAsSmartAccount(mine, 'hello', { deployed: false }))).toBe(
      true,
    )
    expect(await verify(address, 'other', await signAsSmartAccount(mine, 'hello', { deployed: false }))).toBe(
      false,
    )
    expect(await rpc(anvil.url, 'eth_getCode', [address, 'latest'])).toBe('0x')
  })
})
