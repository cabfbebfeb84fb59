import { METHODS, SIGNING_METHODS, selectMethods } from '@pairlink/protocol'
import { describe, expect, test } from 'vitest'
import { RPC_METHODS } from '../apps/server/src/rpcMethods.js'
import { decodeRequest } from '../apps/wallet/src/core/decodeRequest.js'
import { WALLET_METHODS } from '../apps/wallet/src/core/namespaces.js'
import { answerSessionMethod } from '../apps/wallet/src/core/sessionMethods.js'
import { SIGNING_REQUEST_METHODS } from '../apps/wallet/src/core/signingMethods.js'
import { PROPOSED_METHODS } from '../packages/provider/src/v2/namespaces.js'
import { isWalletMethod } from '../packages/provider/src/walletRequest.js'

// Each list of methods the packages and apps keep, pinned to what it held when they were written out by hand (before
// protocol's method table): deriving them from the table changed none of them.
const sorted = (list: Iterable<string>) => [...list].sort()

/** v1's 1.8.0 list of methods the person approves in the wallet, in its order. */
const V1_SIGNING = [
  'eth_sendTransaction',
  'eth_signTransaction',
  'eth_sign',
  'eth_signTypedData',
  'eth_signTypedData_v1',
  'eth_signTypedData_v2',
  'eth_signTypedData_v3',
  'eth_signTypedData_v4',
  'personal_sign',
  'wallet_addEthereumChain',
  'wallet_switchEthereumChain',
  'wallet_getPermissions',
  'wallet_requestPermissions',
  'wallet_registerOnboarding',
  'wallet_watchAsset',
  'wallet_scanQRCode',
]

/** The reads `/rpc` forwards, and raw transactions. */
const SERVER_RPC = [
  'eth_blockNumber',
  'eth_call',
  'eth_chainId',
  'eth_estimateGas',
  'eth_feeHistory',
  'eth_gasPrice',
  'eth_getBalance',
  'eth_getBlockByHash',
  'eth_getBlockByNumber',
  'eth_getCode',
  'eth_getLogs',
  'eth_getStorageAt',
  'eth_getTransactionByHash',
  'eth_getTransactionCount',
  'eth_getTransactionReceipt',
  'eth_maxPriorityFeePerGas',
  'eth_sendRawTransaction',
  'net_version',
]

const WALLET_SIGNS = [
  'personal_sign',
  'eth_sign',
  'eth_signTypedData',
  'eth_signTypedData_v3',
  'eth_signTypedData_v4',
  'eth_sendTransaction',
  'eth_signTransaction',
]

const WALLET_ANSWERS = [
  'wallet_switchEthereumChain',
  'wallet_addEthereumChain',
  'eth_accounts',
  'eth_requestAccounts',
  'eth_chainId',
  'net_version',
]

describe('the lists of methods', () => {
  test('default: v1 signing methods (the client publishes them with silent: false), in their order', () => {
    expect([...SIGNING_METHODS]).toEqual(V1_SIGNING)
  })

  test('default: the provider sends v1 signing methods and every wallet_* to the wallet, the rest elsewhere', () => {
    const candidates = [
      ...V1_SIGNING,
      ...SERVER_RPC,
      ...WALLET_ANSWERS,
      'wallet_revokePermissions',
      'eth_coinbase',
    ]
    expect(sorted(new Set(candidates.filter(isWalletMethod)))).toEqual(
      sorted([...V1_SIGNING, 'wallet_revokePermissions']),
    )
  })

  test('default: a v2 dapp proposes the v1 signing methods', () => {
    expect(sorted(new Set(PROPOSED_METHODS))).toEqual(sorted(V1_SIGNING))
  })

  test('default: the server forwards reads and raw transactions only', () => {
    expect(sorted(RPC_METHODS)).toEqual(sorted(SERVER_RPC))
  })

  test('default: the reference wallet signs seven methods and answers six from the session', () => {
    expect(sorted(SIGNING_REQUEST_METHODS)).toEqual(sorted(WALLET_SIGNS))
    expect(sorted(WALLET_METHODS)).toEqual(sorted([...WALLET_SIGNS, ...WALLET_ANSWERS]))
    expect(new Set(WALLET_METHODS).size).toBe(WALLET_METHODS.length)
  })
})

describe('the code behind the lists', () => {
  test('behavior: the reference wallet answers each method it answers, and decodes each it signs or answers', async () => {
    const session = {
      address: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8',
      chainId: 1,
      switchChain: async () => {},
    }
    for (const method of selectMethods(METHODS, 'wallet', 'answer'))
      expect(
        await answerSessionMethod({ method, params: [{ chainId: '0x1' }] }, session),
        method,
      ).toBeDefined()
    for (const method of WALLET_METHODS)
      expect(decodeRequest({ method, params: [] }), method).not.toMatchObject({
        reason: `The wallet does not support ${method}`,
      })
  })
})
