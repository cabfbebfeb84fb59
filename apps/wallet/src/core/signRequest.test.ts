import { RpcError } from '@pairlink/protocol'
import { MAIL_TYPED_DATA } from '@pairlink/test-kit'
import { type Anvil, startAnvil } from '@pairlink/test-kit/anvil'
import {
  createPublicClient,
  type Hex,
  http,
  parseEther,
  parseTransaction,
  recoverTransactionAddress,
  type TransactionSerialized,
  verifyMessage,
  verifyTypedData,
} from 'viem'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { getDevAccount } from './accounts.js'
import { signRequest } from './signRequest.js'

const account = getDevAccount(0)
const other = getDevAccount(1)
let anvil: Anvil
let parameters: Parameters<typeof signRequest>[1]

beforeAll(async () => {
  anvil = await startAnvil()
  parameters = { account, rpcUrl: anvil.url, chainId: anvil.chainId }
})
afterAll(async () => {
  await anvil?.stop()
})

async function rpcError(promise: Promise<unknown>): Promise<{ code: number; message: string }> {
  const error = await promise.then(
    () => expect.fail('expected a rejection'),
    (e: unknown) => e,
  )
  expect(error).toBeInstanceOf(RpcError)
  const { code, message } = error as RpcError
  return { code, message }
}

describe('signRequest', () => {
  test('default: personal_sign verifies', async () => {
    const { status, result } = await signRequest(
      { method: 'personal_sign', params: ['0x48656c6c6f', account.address] },
      parameters,
    )
    expect(status).toBe('signed')
    expect(await verifyMessage({ address: account.address, message: 'Hello', signature: result })).toBe(true)
  })

  test('args: personal_sign with plain text', async () => {
    const { result } = await signRequest(
      { method: 'personal_sign', params: ['Hello', account.address] },
      parameters,
    )
    expect(await verifyMessage({ address: account.address, message: 'Hello', signature: result })).toBe(true)
  })

  test('args: eth_sign signs the raw bytes with the personal prefix', async () => {
    const raw: Hex = `0x${'ab'.repeat(32)}`
    const { result } = await signRequest({ method: 'eth_sign', params: [account.address, raw] }, parameters)
    expect(await verifyMessage({ address: account.address, message: { raw }, signature: result })).toBe(true)
  })

  test.each(['eth_signTypedData', 'eth_signTypedData_v3', 'eth_signTypedData_v4'])(
    'args: %s verifies',
    async (method) => {
      const { result } = await signRequest(
        { method, params: [account.address, JSON.stringify(MAIL_TYPED_DATA)] },
        parameters,
      )
      const { EIP712Domain: _, ...types } = MAIL_TYPED_DATA.types
      const valid = await verifyTypedData({
        ...MAIL_TYPED_DATA,
        types,
        address: account.address,
        signature: result,
      })
      expect(valid).toBe(true)
    },
  )

  test('args: eth_signTransaction fills nonce, gas and fees from the node', async () => {
    const tx = { from: account.address, to: other.address, value: '0x2386f26fc10000', data: '' }
    const { status, result } = await signRequest({ method: 'eth_signTransaction', params: [tx] }, parameters)
    expect(status).toBe('signed')
    const serialized = result as TransactionSerialized
    expect(await recoverTransactionAddress({ serializedTransaction: serialized })).toBe(account.address)
    const parsed = parseTransaction(serialized)
    expect(parsed).toMatchObject({
      to: other.address.toLowerCase(),
      value: parseEther('0.01'),
      chainId: anvil.chainId,
    })
    expect(parsed.gas).toBeGreaterThan(0n)
  })

  test('behavior: eth_sendTransaction broadcasts and is mined', async () => {
    const publicClient = createPublicClient({ transport: http(anvil.url) })
    const before = await publicClient.getBalance({ address: other.address })
    const tx = { from: account.address, to: other.address, value: '0xde0b6b3a7640000' }
    const { status, result } = await signRequest({ method: 'eth_sendTransaction', params: [tx] }, parameters)
    expect(status).toBe('sent')
    const receipt = await publicClient.waitForTransactionReceipt({ hash: result, timeout: 20_000 })
    expect(receipt.status).toBe('success')
    expect(await publicClient.getBalance({ address: other.address })).toBe(before + parseEther('1'))
  })

  test('error: unsupported method → 4200 naming it', async () => {
    expect(await rpcError(signRequest({ method: 'eth_decrypt', params: [] }, parameters))).toEqual({
      code: 4200,
      message: 'The wallet does not support the method "eth_decrypt"',
    })
  })

  test('error: another address → 4100 with the v1 text', async () => {
    expect(
      await rpcError(signRequest({ method: 'personal_sign', params: ['0x00', other.address] }, parameters)),
    ).toEqual({
      code: 4100,
      message: `Unknown address - unable to sign message for this address: "${other.address}"`,
    })
    const tx = { from: other.address, to: account.address }
    expect(await rpcError(signRequest({ method: 'eth_sendTransaction', params: [tx] }, parameters))).toEqual({
      code: 4100,
      message: `Unknown address - unable to sign transaction for this address: "${other.address}"`,
    })
  })

  test('error: bad params → -32602', async () => {
    const typed = signRequest({ method: 'eth_signTypedData_v4', params: [account.address, '{'] }, parameters)
    expect(await rpcError(typed)).toEqual({
      code: -32602,
      message: 'Invalid params: eth_signTypedData_v4 typed data is not valid JSON',
    })
    const missing = { ...MAIL_TYPED_DATA, message: { contents: 'x' } }
    const incomplete = signRequest(
      { method: 'eth_signTypedData_v4', params: [account.address, missing] },
      parameters,
    )
    expect((await rpcError(incomplete)).code).toBe(-32602)
  })

  test('error: a node that is down → -32603, no key in the message', async () => {
    const down = { ...parameters, rpcUrl: 'http://127.0.0.1:9' }
    const error = await rpcError(
      signRequest(
        { method: 'eth_sendTransaction', params: [{ from: account.address, to: other.address }] },
        down,
      ),
    )
    expect(error.code).toBe(-32603)
    expect(error.message).not.toContain('ac0974bec39a17e36ba4a6b4d238ff944bacb478')
  })

  test('error: session chain differs from the node’s chain → -32603, the wallet is on another chain', async () => {
    const wrongChain = { ...parameters, chainId: 1 }
    const error = await rpcError(
      signRequest(
        { method: 'eth_sendTransaction', params: [{ from: account.address, to: other.address }] },
        wrongChain,
      ),
    )
    expect(error).toEqual({
      code: -32603,
      message:
        'The wallet is on another chain: its session is on Ethereum (1), but its node serves Anvil dev chain (31337). Switch the wallet or the dapp to the same chain.',
    })
  })

  test('error: a transaction for another chain than the session’s → refused before the node', async () => {
    const tx = { from: account.address, to: other.address, chainId: '0x1' }
    const error = await rpcError(signRequest({ method: 'eth_sendTransaction', params: [tx] }, parameters))
    expect(error).toEqual({
      code: -32603,
      message:
        'The wallet is on another chain: its session is on Anvil dev chain (31337), but the transaction is for Ethereum (1). Switch the wallet or the dapp to the same chain.',
    })
  })

  test('error: more than the balance → -32003 insufficient funds, as geth words it', async () => {
    const tx = { from: account.address, to: other.address, value: `0x${parseEther('1000000').toString(16)}` }
    const error = await rpcError(signRequest({ method: 'eth_sendTransaction', params: [tx] }, parameters))
    expect(error).toEqual({
      code: -32003,
      message:
        "insufficient funds for gas * price + value: the account's balance does not cover 1000000 ETH plus gas",
    })
  })
})
