import { MAIL_TYPED_DATA, RECIPIENT } from '@pairlink/test-kit'
import { ANVIL_ACCOUNT, rpc } from '@pairlink/test-kit/anvil'
import { BrowserProvider, isError, parseEther, verifyMessage, verifyTypedData } from 'ethers'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { startStack } from '../test/session.js'
import type { Provider } from './createProvider.js'

// ethers v6 on a real chain: anvil, the real bridge, our client as the wallet; ethers only sees the provider.
let stack: Awaited<ReturnType<typeof startStack>>
let provider: Provider
let ethers: BrowserProvider
beforeAll(async () => {
  stack = await startStack()
  provider = stack.provider()
  ethers = new BrowserProvider(provider)
  ethers.pollingInterval = 200
})
afterAll(async () => {
  ethers?.destroy()
  await provider?.disconnect()
  await stack?.stop()
})

test('default: connect, read a balance, send a transaction, wait for its receipt', async () => {
  const signer = await ethers.getSigner()
  expect(signer.address).toBe(ANVIL_ACCOUNT.address)
  expect((await ethers.getNetwork()).chainId).toBe(31337n)
  const balance = await ethers.getBalance(signer.address)
  expect(balance).toBe(
    BigInt((await rpc(stack.anvil.url, 'eth_getBalance', [signer.address, 'latest'])) as string),
  )

  const tx = await signer.sendTransaction({ to: RECIPIENT, value: parseEther('2') })
  const receipt = await tx.wait()
  expect(receipt?.status).toBe(1)
  expect(receipt?.from).toBe(signer.address)
  expect(await ethers.getBalance(RECIPIENT)).toBe(parseEther('2'))
  expect(stack.wallet.requests.map((r) => r.method)).toEqual(['eth_sendTransaction'])
})

test('behavior: sign typed data (v4) and a personal message', async () => {
  const signer = await ethers.getSigner()
  const { domain, message } = MAIL_TYPED_DATA
  // ethers derives the domain type from `domain` itself and refuses an `EIP712Domain` entry in `types`.
  const types = Object.fromEntries(
    Object.entries(MAIL_TYPED_DATA.types)
      .filter(([name]) => name !== 'EIP712Domain')
      .map(([name, fields]) => [name, [...fields]]),
  )
  const signature = await signer.signTypedData(domain, types, message)
  expect(verifyTypedData(domain, types, message, signature)).toBe(signer.address)
  expect(stack.wallet.requests.at(-1)?.method).toBe('eth_signTypedData_v4')

  const personal = await signer.signMessage('Hello from Pairlink')
  expect(verifyMessage('Hello from Pairlink', personal)).toBe(signer.address)
})

test('error: the person rejects in the wallet → ethers ACTION_REJECTED', async () => {
  const signer = await ethers.getSigner()
  stack.wallet.reject({ code: 4001, message: 'User rejected the request.' })
  const error = await signer.signMessage('no').catch((e) => e)
  expect(isError(error, 'ACTION_REJECTED')).toBe(true)
})

test('error: a method nothing takes reaches ethers naming the method', async () => {
  const error = await ethers.send('foo_bar', []).catch((e) => e)
  expect(error.error).toMatchObject({ code: -32601 })
  expect(error.error.message).toContain('foo_bar')
})
