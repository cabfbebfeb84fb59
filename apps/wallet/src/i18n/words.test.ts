import { afterEach, describe, expect, test } from 'vitest'
import { setupLanguage } from './i18n.js'
import { describeMethod, formatChain } from './words.js'

afterEach(async () => {
  await setupLanguage(['en'])
})

describe('describeMethod', () => {
  test.each([
    ['personal_sign', 'Sign messages (personal_sign)'],
    ['eth_signTypedData_v4', 'Sign typed data (eth_signTypedData_v4)'],
    ['eth_sendTransaction', 'Send transactions (eth_sendTransaction)'],
    ['wallet_switchEthereumChain', 'Switch networks (wallet_switchEthereumChain)'],
    ['wallet_getCallsStatus', 'wallet_getCallsStatus'],
    ['constructor', 'constructor'],
  ])('default: %s', (method, words) => {
    expect(describeMethod(method)).toBe(words)
  })

  test('behavior: in the page’s language, the method named as is', async () => {
    await setupLanguage(['es'])
    expect(describeMethod('personal_sign')).toBe('Firmar mensajes (personal_sign)')
  })
})

describe('formatChain', () => {
  test('default: as the web app writes it', () => {
    expect([formatChain(31337), formatChain(1), formatChain(5)]).toEqual([
      'Anvil dev chain (31337)',
      'Ethereum (1)',
      'Chain 5',
    ])
  })

  test('behavior: the dev chain in the page’s language; names stay', async () => {
    await setupLanguage(['de-DE'])
    expect([formatChain(31337), formatChain(10)]).toEqual([
      'Anvil-Entwicklungs-Chain (31337)',
      'OP Mainnet (10)',
    ])
  })
})
