import { ANVIL_ACCOUNT } from '@pairlink/test-kit/anvil'
import { verifyMessage } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { parseSiweMessage, validateSiweMessage } from 'viem/siwe'
import { describe, expect, test } from 'vitest'
import { buildSignInMessage, SIGN_IN_STATEMENT } from './signIn.js'

// anvil's dev account 0: a well-known test key, never a real one.
const account = privateKeyToAccount(ANVIL_ACCOUNT.privateKey)
const base = {
  address: account.address,
  chainId: 31337,
  domain: '127.0.0.1:5173',
  uri: 'http://127.0.0.1:5173',
  nonce: 'abcdef0123456789',
  issuedAt: new Date('2030-01-01T00:00:00.000Z'),
}

describe('buildSignInMessage', () => {
  test('default: an EIP-4361 message for this site, chain and nonce', () => {
    const message = buildSignInMessage(base)
    expect(message.split('\n')[0]).toBe('127.0.0.1:5173 wants you to sign in with your Ethereum account:')
    const parsed = parseSiweMessage(message)
    expect(parsed).toMatchObject({
      address: account.address,
      chainId: 31337,
      domain: base.domain,
      uri: base.uri,
      nonce: base.nonce,
      version: '1',
      statement: SIGN_IN_STATEMENT,
    })
    expect(parsed.issuedAt?.toISOString()).toBe('2030-01-01T00:00:00.000Z')
    expect(parsed.expirationTime).toBeUndefined()
  })

  test('args: expirationTime — carried into the message and respected by validation', () => {
    const expirationTime = new Date('2030-01-01T00:10:00.000Z')
    const parsed = parseSiweMessage(buildSignInMessage({ ...base, expirationTime }))
    expect(parsed.expirationTime?.toISOString()).toBe(expirationTime.toISOString())
    const check = (time: string) =>
      validateSiweMessage({ message: parsed, domain: base.domain, nonce: base.nonce, time: new Date(time) })
    expect(check('2030-01-01T00:05:00.000Z')).toBe(true)
    expect(check('2030-01-01T00:11:00.000Z')).toBe(false)
  })

  test('behavior: a wallet signature over it recovers to the account', async () => {
    const message = buildSignInMessage(base)
    const signature = await account.signMessage({ message })
    expect(await verifyMessage({ address: account.address, message, signature })).toBe(true)
  })
})
