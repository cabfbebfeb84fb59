import { mnemonicToAccount } from 'viem/accounts'
import { describe, expect, test } from 'vitest'
import {
  DEV_ACCOUNT_COUNT,
  DEV_MNEMONIC,
  DEV_PRIVATE_KEYS,
  getDevAccount,
  importAccount,
  parsePrivateKey,
  shortAddress,
} from './accounts.js'

const KEY = DEV_PRIVATE_KEYS[1]

describe('getDevAccount', () => {
  test('default', () => {
    expect(getDevAccount(0).address).toBe('0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266')
  })

  test('behavior: the written-out keys are anvil’s mnemonic accounts 0–9', () => {
    expect(DEV_ACCOUNT_COUNT).toBe(10)
    for (let index = 0; index < DEV_ACCOUNT_COUNT; index++) {
      expect(getDevAccount(index).address).toBe(
        mnemonicToAccount(DEV_MNEMONIC, { addressIndex: index }).address,
      )
    }
  })

  test('error: index out of range', () => {
    expect(() => getDevAccount(10)).toThrowErrorMatchingInlineSnapshot(
      `[RangeError: Dev account index must be an integer from 0 to 9]`,
    )
    expect(() => getDevAccount(-1)).toThrow(RangeError)
    expect(() => getDevAccount(1.5)).toThrow(RangeError)
  })
})

describe('parsePrivateKey', () => {
  test('default', () => {
    expect(parsePrivateKey(KEY)).toBe(KEY)
  })

  test('args: without 0x, upper case, surrounding spaces', () => {
    expect(parsePrivateKey(`  ${KEY.slice(2).toUpperCase()}\n`)).toBe(KEY)
  })

  test('error: not a key, and the message never repeats the input', () => {
    for (const input of [
      '',
      '0x1234',
      `${KEY}00`,
      `0x${'zz'.repeat(32)}`,
      `0x${'0'.repeat(64)}`,
      `0x${'f'.repeat(64)}`,
    ]) {
      let message = ''
      try {
        parsePrivateKey(input)
      } catch (error) {
        expect((error as { code: string }).code).toBe('ERR_WALLET_PRIVATE_KEY')
        message = (error as Error).message
      }
      expect(message).toBe('Invalid private key: expected 0x followed by 64 hex digits')
    }
  })
})

describe('importAccount', () => {
  test('default', () => {
    expect(importAccount(KEY).address).toBe(getDevAccount(1).address)
  })
})

describe('shortAddress', () => {
  test('default', () => {
    expect(shortAddress('0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266')).toBe('0xf39F…2266')
  })
})
