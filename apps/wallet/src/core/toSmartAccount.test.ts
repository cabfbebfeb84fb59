import { RpcError } from '@pairlink/protocol'
import { getSmartAccountAddress, getSmartAccountFactoryData } from '@pairlink/smart-account'
import { type Anvil, startAnvil } from '@pairlink/test-kit/anvil'
import { createPublicClient, http, isErc6492Signature, parseErc6492Signature, toHex } from 'viem'
import { foundry } from 'viem/chains'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { getDevAccount } from './accounts.js'
import { signCacaoMessage } from './signCacaoMessage.js'
import { signRequest } from './signRequest.js'
import { isSmartAccount, toSmartAccount } from './toSmartAccount.js'

let anvil: Anvil
let reader: ReturnType<typeof createPublicClient>
beforeAll(async () => {
  anvil = await startAnvil({ blockTime: 0 })
  reader = createPublicClient({ chain: foundry, transport: http(anvil.url) })
})
afterAll(() => anvil?.stop())

describe('toSmartAccount', () => {
  test('default: the address is the factory’s CREATE2 address for the owner key', () => {
    const owner = getDevAccount(5)
    const account = toSmartAccount({ owner, kind: 'counterfactual', rpcUrl: 'http://127.0.0.1:1' })
    expect(account.address).toBe(getSmartAccountAddress({ owner: owner.address }))
    expect(account.address).not.toBe(owner.address)
    expect(isSmartAccount(account)).toBe(true)
    expect(isSmartAccount(owner)).toBe(false)
  })

  test('behavior: counterfactual — the owner’s signature in an EIP-6492 wrapper naming the factory; no chain is asked', async () => {
    const owner = getDevAccount(5)
    // A node nobody listens on: a counterfactual account never needs one to sign.
    const account = toSmartAccount({ owner, kind: 'counterfactual', rpcUrl: 'http://127.0.0.1:1' })
    const signature = await account.signMessage({ message: 'hello' })
    expect(parseErc6492Signature(signature)).toEqual({
      address: expect.stringMatching(/^0x[0-9a-fA-F]{40}$/),
      data: getSmartAccountFactoryData({ owner: owner.address }),
      signature: await owner.signMessage({ message: 'hello' }),
    })
    const onChain = toSmartAccount({ owner, kind: 'counterfactual', rpcUrl: anvil.url })
    expect(await reader.verifyMessage({ address: account.address, message: 'hello', signature })).toBe(true)
    expect(await reader.getCode({ address: onChain.address })).toBeUndefined()
  })

  test('behavior: deployed — deployed from the owner key before its first signature, once; plain EIP-1271 signatures', async () => {
    const owner = getDevAccount(6)
    const account = toSmartAccount({ owner, kind: 'deployed', rpcUrl: anvil.url })
    expect(await reader.getCode({ address: account.address })).toBeUndefined()
    const signature = await account.signMessage({ message: 'hello' })
    expect(isErc6492Signature(signature)).toBe(false)
    expect(await reader.getCode({ address: account.address })).not.toBeUndefined()
    expect(await reader.verifyMessage({ address: account.address, message: 'hello', signature })).toBe(true)
    const nonce = await reader.getTransactionCount({ address: owner.address })
    await account.signMessage({ message: 'again' })
    expect(await reader.getTransactionCount({ address: owner.address })).toBe(nonce)
  })

  test('error: deployed on a node that does not answer — a -32603 naming the account; the next signature tries again', async () => {
    const account = toSmartAccount({
      owner: getDevAccount(7),
      kind: 'deployed',
      rpcUrl: 'http://127.0.0.1:1',
    })
    for (let attempt = 0; attempt < 2; attempt++) {
      const error = await account.signMessage({ message: 'hello' }).catch((e: unknown) => e)
      expect(error).toBeInstanceOf(RpcError)
      expect(error).toMatchObject({ code: -32603 })
      expect((error as Error).message).toContain(`The smart account ${account.address} could not be deployed`)
    }
  })

  test('error: transactions from a smart account are refused with 4200', async () => {
    const account = toSmartAccount({ owner: getDevAccount(5), kind: 'counterfactual', rpcUrl: anvil.url })
    for (const method of ['eth_sendTransaction', 'eth_signTransaction']) {
      const error = await signRequest(
        { method, params: [{ from: account.address, to: account.address, value: '0x1' }] },
        { account, rpcUrl: anvil.url, chainId: anvil.chainId },
      ).catch((e: unknown) => e)
      expect(error).toMatchObject({
        code: 4200,
        message: `The wallet does not send transactions from the smart account ${account.address}: it signs messages and typed data only`,
      })
    }
  })

  test('behavior: personal_sign through signRequest signs for the smart account', async () => {
    const account = toSmartAccount({ owner: getDevAccount(5), kind: 'counterfactual', rpcUrl: anvil.url })
    const raw = toHex('hello')
    const { result } = await signRequest(
      { method: 'personal_sign', params: [raw, account.address] },
      { account, rpcUrl: anvil.url, chainId: anvil.chainId },
    )
    expect(
      await reader.verifyMessage({ address: account.address, message: { raw }, signature: result }),
    ).toBe(true)
  })
})

describe('signCacaoMessage', () => {
  test('default: a key signs eip191', async () => {
    const key = getDevAccount(5)
    const signed = await signCacaoMessage(key, 'a SIWE message')
    expect(signed).toEqual({
      address: key.address,
      signature: await key.signMessage({ message: 'a SIWE message' }),
      type: 'eip191',
    })
  })

  test('behavior: a smart account signs eip1271, for its own address, verifiable through the chain', async () => {
    const account = toSmartAccount({ owner: getDevAccount(5), kind: 'counterfactual', rpcUrl: anvil.url })
    const signed = await signCacaoMessage(account, 'a SIWE message')
    expect(signed).toMatchObject({ address: account.address, type: 'eip1271' })
    expect(
      await reader.verifyMessage({
        address: account.address,
        message: 'a SIWE message',
        signature: signed.signature,
      }),
    ).toBe(true)
  })
})
