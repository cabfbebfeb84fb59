import { MAIL_TYPED_DATA, RECIPIENT } from '@pairlink/test-kit'
import { ANVIL_ACCOUNT } from '@pairlink/test-kit/anvil'
import { providers, utils } from 'ethers5'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { startStack } from '../test/session.js'
import type { Provider } from './createProvider.js'

// ethers v5 (the npm alias `ethers5`) on a real chain: anvil, the real bridge, our client as the wallet. v5's
// Web3Provider hands the provider's error to its JsonRpcSigner untouched, and the signer calls it ACTION_REJECTED
// only when the message says "user denied": the code alone is not enough for v5.
let stack: Awaited<ReturnType<typeof startStack>>
let provider: Provider
let ethers: providers.Web3Provider
beforeAll(async () => {
  stack = await startStack()
  provider = stack.provider()
  await provider.enable()
  ethers = new providers.Web3Provider(provider)
})
afterAll(async () => {
  await provider?.disconnect()
  await stack?.stop()
})

test('default: ethers v5 signs through the provider', async () => {
  const signer = ethers.getSigner()
  expect(await signer.getAddress()).toBe(ANVIL_ACCOUNT.address)
  const signature = await signer.signMessage('Hello from Pairlink')
  expect(utils.verifyMessage('Hello from Pairlink', signature)).toBe(ANVIL_ACCOUNT.address)
})

test('error: the person rejects in the wallet → ethers v5 ACTION_REJECTED (message, typed data, transaction)', async () => {
  const signer = ethers.getSigner()
  const { domain, message } = MAIL_TYPED_DATA
  // ethers derives the domain type from `domain` itself and refuses an `EIP712Domain` entry in `types`.
  const types = Object.fromEntries(
    Object.entries(MAIL_TYPED_DATA.types)
      .filter(([name]) => name !== 'EIP712Domain')
      .map(([name, fields]) => [name, [...fields]]),
  )
  const attempts: [string, () => Promise<unknown>][] = [
    ['signMessage', () => signer.signMessage('no')],
    ['_signTypedData', () => signer._signTypedData(domain, types, message)],
    ['sendTransaction', () => signer.sendTransaction({ to: RECIPIENT, value: 1, gasLimit: 21_000 })],
  ]
  // What the reference wallet sends (4001) and what v1 wallets send for everything (-32000).
  for (const code of [4001, -32000]) {
    for (const [action, attempt] of attempts) {
      stack.wallet.reject({ code, message: 'User rejected the request.' })
      const error = (await attempt().catch((e) => e)) as { code?: unknown; action?: unknown }
      expect({ code, action, error: error.code }).toEqual({ code, action, error: 'ACTION_REJECTED' })
      expect(error.action).toBe(action)
    }
  }
})
