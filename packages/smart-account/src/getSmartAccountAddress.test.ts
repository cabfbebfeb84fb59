import { type Anvil, startAnvil } from '@pairlink/test-kit/anvil'
import { createPublicClient, http, isAddressEqual, parseErc6492Signature } from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { foundry } from 'viem/chains'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { ACCOUNT_FACTORY_ADDRESS, SMART_ACCOUNT_SALT } from './constants.js'
import { PairlinkAccountFactory } from './contracts.js'
import { deploySmartAccount } from './deploySmartAccount.js'
import { getSmartAccountAddress, getSmartAccountFactoryData } from './getSmartAccountAddress.js'
import { toSmartAccountSignature } from './toSmartAccountSignature.js'

// anvil's dev account #2: funded on a fresh chain.
const funded = privateKeyToAccount('0x5de4111afa1a4b94908f83103eb1f1706367c2e68ca870fc3fb9a804cdab365a')

let anvil: Anvil
let reader: ReturnType<typeof createPublicClient>
beforeAll(async () => {
  anvil = await startAnvil({ blockTime: 0 })
  reader = createPublicClient({ chain: foundry, transport: http(anvil.url) })
})
afterAll(() => anvil?.stop())

describe('getSmartAccountAddress', () => {
  test('default: the factory’s own addressOf(owner, salt)', async () => {
    const owner = privateKeyToAccount(generatePrivateKey()).address
    const onChain = await reader.readContract({
      address: ACCOUNT_FACTORY_ADDRESS,
      abi: PairlinkAccountFactory.abi,
      functionName: 'addressOf',
      args: [owner, SMART_ACCOUNT_SALT],
    })
    expect(getSmartAccountAddress({ owner })).toBe(onChain)
  })

  test('args: salt and factory each move the address', () => {
    const owner = privateKeyToAccount(generatePrivateKey()).address
    const base = getSmartAccountAddress({ owner })
    expect(getSmartAccountAddress({ owner, salt: `0x${'00'.repeat(31)}01` })).not.toBe(base)
    expect(getSmartAccountAddress({ owner, factory: funded.address })).not.toBe(base)
  })
})

describe('toSmartAccountSignature', () => {
  test('behavior: deployed, the owner’s signature as it is; not deployed, an EIP-6492 wrapper of the factory call', () => {
    const owner = privateKeyToAccount(generatePrivateKey()).address
    const signature = `0x${'ab'.repeat(65)}` as const
    expect(toSmartAccountSignature({ owner, signature, deployed: true })).toBe(signature)
    const wrapped = parseErc6492Signature(toSmartAccountSignature({ owner, signature, deployed: false }))
    expect(wrapped).toEqual({
      address: ACCOUNT_FACTORY_ADDRESS,
      data: getSmartAccountFactoryData({ owner }),
      signature,
    })
  })

  test('behavior: a verifier on the chain accepts the owner’s message and typed-data signatures, before and after deployment', async () => {
    const key = privateKeyToAccount(generatePrivateKey())
    const address = getSmartAccountAddress({ owner: key.address })
    const typedData = {
      domain: { name: 'Pairlink', chainId: 31337 },
      types: { Note: [{ name: 'text', type: 'string' }] },
      primaryType: 'Note',
      message: { text: 'hello' },
    } as const
    const check = async (deployed: boolean) => {
      const message = toSmartAccountSignature({
        owner: key.address,
        signature: await key.signMessage({ message: 'hello' }),
        deployed,
      })
      const typed = toSmartAccountSignature({
        owner: key.address,
        signature: await key.signTypedData(typedData),
        deployed,
      })
      expect(await reader.verifyMessage({ address, message: 'hello', signature: message })).toBe(true)
      expect(await reader.verifyMessage({ address, message: 'other', signature: message })).toBe(false)
      expect(await reader.verifyTypedData({ address, ...typedData, signature: typed })).toBe(true)
    }
    await check(false)
    expect(await reader.getCode({ address })).toBeUndefined()
    // The owner deploys its own account: a fresh key, funded as anvil funds nothing else.
    await reader.request({
      method: 'anvil_setBalance' as never,
      params: [key.address, '0xde0b6b3a7640000'] as never,
    })
    expect(
      isAddressEqual(await deploySmartAccount({ url: anvil.url, from: key, owner: key.address }), address),
    ).toBe(true)
    expect(await reader.getCode({ address })).not.toBeUndefined()
    await check(true)
  })
})
