// The method table's rows, the one place to edit when a method is added (packages/provider/README.md, "How to add a
// method"); methodTable.ts makes the table and each list of methods from them.
/**
 * What one JSON-RPC method is to each part of Pairlink; a field left out means "no". A method the person approves
 * is never one the server's `/rpc` forwards (the type refuses both, and the server checks it again).
 */
export type MethodEntry =
  | {
      /**
       * The dapp asks the wallet and the person approves it there: the provider sends it through the session (never
       * to the node), the v1 client publishes it with `silent: false` so the bridge pushes it to the wallet (reference
       * §4.8), and a v2 dapp proposes it.
       */
      readonly approval: true
      /** What the reference wallet (`apps/wallet`) does with it; both are granted in the v2 sessions it approves. */
      readonly wallet?: 'sign' | 'answer' | undefined
      readonly node?: undefined
    }
  | {
      readonly approval?: undefined
      /**
       * What the reference wallet (`apps/wallet`) does with it: `sign` (its signing core), `answer` (from the session:
       * accounts, chain); both are granted in the v2 sessions it approves.
       */
      readonly wallet?: 'sign' | 'answer' | undefined
      /**
       * What the server's `/rpc` forwards to its node: a `read`, or the `broadcast` of a transaction signed already.
       * A security boundary: only what is marked here reaches the node.
       */
      readonly node?: 'read' | 'broadcast' | undefined
    }

/** A method table: `METHODS`, or one built like it (a test's). */
export type MethodTable = Readonly<Record<string, MethodEntry>>

/**
 * The methods the person approves in the wallet (`approval` in `METHODS`: v1's 1.8.0 signing methods, in their
 * order, `SIGNING_METHODS`), each with what the reference wallet does with it (`wallet` in `METHODS`, `false`
 * for nothing). The table's first rows, written this short and apart from the others because browser bundles (the
 * provider's routing, the v1 client's pushes, the v2 proposal) carry these alone and have budgets to hold.
 */
export const APPROVAL_METHODS = {
  eth_sendTransaction: 'sign',
  eth_signTransaction: 'sign',
  eth_sign: 'sign',
  eth_signTypedData: 'sign',
  eth_signTypedData_v1: false,
  eth_signTypedData_v2: false,
  eth_signTypedData_v3: 'sign',
  eth_signTypedData_v4: 'sign',
  personal_sign: 'sign',
  wallet_addEthereumChain: 'answer',
  wallet_switchEthereumChain: 'answer',
  wallet_getPermissions: false,
  wallet_requestPermissions: false,
  wallet_registerOnboarding: false,
  wallet_watchAsset: false,
  wallet_scanQRCode: false,
} as const satisfies Readonly<Record<string, NonNullable<MethodEntry['wallet']> | false>>

/**
 * The methods answered without the person: by the reference wallet from its session (`wallet`), or by the node
 * through a server's `/rpc` (`node`). The rest of `METHODS`' rows; a method is in one of the two lists only.
 */
export const ANSWERED_METHODS = {
  eth_accounts: { wallet: 'answer' },
  eth_requestAccounts: { wallet: 'answer' },
  eth_chainId: { wallet: 'answer', node: 'read' },
  net_version: { wallet: 'answer', node: 'read' },
  eth_blockNumber: { node: 'read' },
  eth_call: { node: 'read' },
  eth_estimateGas: { node: 'read' },
  eth_feeHistory: { node: 'read' },
  eth_gasPrice: { node: 'read' },
  eth_getBalance: { node: 'read' },
  eth_getBlockByHash: { node: 'read' },
  eth_getBlockByNumber: { node: 'read' },
  eth_getCode: { node: 'read' },
  eth_getLogs: { node: 'read' },
  eth_getStorageAt: { node: 'read' },
  eth_getTransactionByHash: { node: 'read' },
  eth_getTransactionCount: { node: 'read' },
  eth_getTransactionReceipt: { node: 'read' },
  eth_maxPriorityFeePerGas: { node: 'read' },
  eth_sendRawTransaction: { node: 'broadcast' },
} as const satisfies Readonly<Record<string, Exclude<MethodEntry, { approval: true }>>>
