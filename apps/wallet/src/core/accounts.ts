import type { Hex } from 'viem'
import { type PrivateKeyAccount, privateKeyToAccount } from 'viem/accounts'
import { InvalidPrivateKeyError } from './errors.js'

/** anvil's default mnemonic: its first ten accounts hold 10000 ETH each on a fresh dev chain. */
export const DEV_MNEMONIC = 'test test test test test test test test test test test junk'

/**
 * The keys of {@link DEV_MNEMONIC} at `m/44'/60'/0'/0/{0…9}`, as anvil prints them. Written out because deriving
 * ten HD keys in a browser costs a visible second; `accounts.test.ts` pins them to the mnemonic.
 */
export const DEV_PRIVATE_KEYS = [
  '0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80',
  '0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d',
  '0x5de4111afa1a4b94908f83103eb1f1706367c2e68ca870fc3fb9a804cdab365a',
  '0x7c852118294e51e653712a81e05800f419141751be58f605c371e15141b007a6',
  '0x47e179ec197488593b187f80a00eb0da91f1b9d0b13f8733639f19c30a34926a',
  '0x8b3a350cf5c34c9194ca85829a2df0ec3153be0318b5e2d3348e872092edffba',
  '0x92db14e403b83dfe3df233f83dfa3a0d7096f21ca9b0d6d6b8d88b2b4ec1564e',
  '0x4bbbf85ce3377467afe5d46f804f221813b2bb87f24d81f60f1fcdbf7cbf4356',
  '0xdbda1821b80551c9d65939329250298aa3472ba22feea921c0cf5d620ea67b97',
  '0x2a871d0798f97d79848a013d4936a73bf4cc922c825d33c1cf7073dff6d409c6',
] as const satisfies readonly Hex[]

/** How many dev accounts there are. */
export const DEV_ACCOUNT_COUNT = DEV_PRIVATE_KEYS.length

/**
 * The dev account at `index` (0–9).
 *
 * @example
 * const account = getDevAccount(0) // 0xf39F…2266
 */
export function getDevAccount(index: number): PrivateKeyAccount {
  const key = DEV_PRIVATE_KEYS[index]
  if (!Number.isInteger(index) || key === undefined) {
    throw new RangeError(`Dev account index must be an integer from 0 to ${DEV_ACCOUNT_COUNT - 1}`)
  }
  return privateKeyToAccount(key)
}

/**
 * Checks a pasted private key (surrounding spaces and a missing `0x` tolerated) and returns it normalised. Throws
 * {@link InvalidPrivateKeyError}, whose message never repeats the input.
 */
export function parsePrivateKey(input: string): Hex {
  const text = input.trim()
  const hex = (text.startsWith('0x') || text.startsWith('0X') ? text.slice(2) : text).toLowerCase()
  if (!/^[0-9a-f]{64}$/.test(hex)) throw new InvalidPrivateKeyError()
  const key: Hex = `0x${hex}`
  try {
    // Zero and values ≥ the curve order are 64 hex digits too, but no account.
    privateKeyToAccount(key)
  } catch {
    throw new InvalidPrivateKeyError()
  }
  return key
}

/**
 * An account from an imported key, validated by {@link parsePrivateKey}.
 *
 * @example
 * const account = importAccount(pastedText)
 */
export function importAccount(input: string): PrivateKeyAccount {
  return privateKeyToAccount(parsePrivateKey(input))
}

/** `0xf39F…2266`: enough of an address to recognise it on a small screen. */
export function shortAddress(address: string): string {
  return address.length > 12 ? `${address.slice(0, 6)}…${address.slice(-4)}` : address
}
