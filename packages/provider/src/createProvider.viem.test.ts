import { MAIL_TYPED_DATA, RECIPIENT, waitFor } from '@pairlink/test-kit'
import { ANVIL_ACCOUNT, rpc } from '@pairlink/test-kit/anvil'
import {
  createPublicClient,
  createWalletClient,
  custom,
  parseEther,
  UserRejectedRequestError,
  verifyMessage,
  verifyTypedData,
} from 'viem'
import { foundry } from 'viem/chains'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { startStack } from '../test/session.js'
import { createProvider, type Provider } from './createProvider.js'

// viem on a real chain: anvil, the real bridge, our client as the wallet; viem only ever sees the provider.
let stack: Awaited<ReturnType<typeof startStack>>
let provider: Provider
beforeAll(async () => {
  stack = await startStack()
  provider = stack.provider()
})
afterAll(async () => {
  await provider?.disconnect()
  await stack?.stop()
})

const walletClientOf = (p: Provider) => createWalletClient({ chain: foundry, transport: custom(p) })
const walletClient = () => walletClientOf(provider)
const publicClient = () =>
  createPublicClient({ chain: foundry, transport: custom(provider), pollingInterval: 200 })

test('default: connect, read a balance, send a transaction, wait for its receipt', async () => {
  const [address] = await walletClient().requestAddresses()
  expect(address).toBe(ANVIL_ACCOUNT.address)
  expect(await publicClient().getChainId()).toBe(31337)
  const balance = await publicClient().getBalance({ address: address! })
  expect(balance).toBe(BigInt((await rpc(stack.anvil.url, 'eth_getBalance', [address, 'latest'])) as string))
  expect(balance > parseEther('1')).toBe(true)

  const hash = await walletClient().sendTransaction({
    account: address!,
    to: RECIPIENT,
    value: parseEther('1.5'),
  })
  const receipt = await publicClient().waitForTransactionReceipt({ hash })
  expect(receipt.status).toBe('success')
  expect(receipt.from.toLowerCase()).toBe(address!.toLowerCase())
  expect(await publicClient().getBalance({ address: RECIPIENT })).toBe(parseEther('1.5'))
  expect(stack.wallet.requests.map((r) => r.method)).toEqual(['eth_sendTransaction'])
})

test('behavior: sign typed data (v4) and a personal message', async () => {
  const [account] = await walletClient().getAddresses()
  // viem derives the domain type from `domain`; given `EIP712Domain` in `types`, it types chainId as a bigint.
  const { EIP712Domain: _, ...types } = MAIL_TYPED_DATA.types
  const typedData = { ...MAIL_TYPED_DATA, types }
  const signature = await walletClient().signTypedData({ account: account!, ...typedData })
  expect(await verifyTypedData({ address: account!, ...typedData, signature })).toBe(true)
  expect(stack.wallet.requests.at(-1)?.method).toBe('eth_signTypedData_v4')

  const message = await walletClient().signMessage({ account: account!, message: 'Hello from Pairlink' })
  expect(await verifyMessage({ address: account!, message: 'Hello from Pairlink', signature: message })).toBe(
    true,
  )
})

test('error: the person rejects in the wallet → viem UserRejectedRequestError', async () => {
  const [account] = await walletClient().getAddresses()
  // A v1-style wallet: the code is lost (-32000), the provider still reports 4001.
  stack.wallet.reject({ code: -32000, message: 'User rejected' })
  const error = await walletClient()
    .signMessage({ account: account!, message: 'no' })
    .catch((e) => e)
  expect(error.walk((e: unknown) => e instanceof UserRejectedRequestError)).toBeInstanceOf(
    UserRejectedRequestError,
  )
})

test('behavior: viem watchBlockNumber follows the chain through the provider', async () => {
  const numbers: bigint[] = []
  const unwatch = publicClient().watchBlockNumber({ onBlockNumber: (n) => numbers.push(n), emitMissed: true })
  await waitFor(() => numbers.length >= 3, { timeout: 10_000, message: 'three block numbers' })
  unwatch()
  expect(numbers.every((n, i) => i === 0 || n === numbers[i - 1]! + 1n)).toBe(true)
})

test('behavior: the provider own block events match anvil blocks', async () => {
  const blocks: { number: string; hash: string }[] = []
  const listener = (block: { number: string; hash: string }) => blocks.push(block)
  provider.on('block', listener)
  await waitFor(() => blocks.length >= 3, { timeout: 10_000, message: 'three blocks' })
  provider.removeListener('block', listener)
  for (const block of blocks) {
    const own = (await rpc(stack.anvil.url, 'eth_getBlockByNumber', [block.number, false])) as {
      hash: string
    }
    expect(own.hash).toBe(block.hash)
  }
  const numbers = blocks.map((b) => Number(b.number))
  expect(numbers).toEqual(numbers.map((_, i) => numbers[0]! + i))
})

test('error: the person closes the modal (real client) → 4001 User closed modal', async () => {
  const closing = createProvider({
    bridge: stack.bridge.url,
    modal: { open: (_uri, onUserClose) => queueMicrotask(() => onUserClose?.()), close() {} },
    rpc: { [stack.chainId]: stack.anvil.url },
    chainId: stack.chainId,
  })
  const error = await walletClientOf(closing)
    .requestAddresses()
    .catch((e) => e)
  expect(error.walk((e: unknown) => e instanceof UserRejectedRequestError)).toBeInstanceOf(
    UserRejectedRequestError,
  )
  expect(await closing.enable().catch((e) => e)).toMatchObject({ code: 4001, message: 'User closed modal' })
  ;(closing.client as unknown as { close(): void }).close()
})

test('behavior: disconnect tells the wallet', async () => {
  const ended = new Promise((resolve) => stack.wallet.client.once('disconnect', resolve))
  const events: unknown[] = []
  provider.on('disconnect', (error) => events.push(error))
  await provider.disconnect()
  expect(await ended).toEqual({ message: 'Session disconnected' })
  expect(events).toEqual([expect.objectContaining({ code: 4900 })])
  expect(await provider.request({ method: 'eth_accounts' })).toEqual([])
})
