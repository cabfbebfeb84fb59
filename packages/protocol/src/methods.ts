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

/** A method table: {@link METHODS}, or one built on it (a test's). */
export type MethodTable = Readonly<Record<string, MethodEntry>>

/**
 * Every JSON-RPC method Pairlink's packages and apps treat apart from "anything else goes to the node", and what each
 * does with it: the one list to edit when a method is added (see `packages/provider/README.md`, "How to add a
 * method"). v1's 1.8.0 signing methods come first, in their order (`SIGNING_METHODS`).
 */
export const METHODS = {
  eth_sendTransaction: { approval: true, wallet: 'sign' },
  eth_signTransaction: { approval: true, wallet: 'sign' },
  eth_sign: { approval: true, wallet: 'sign' },
  eth_signTypedData: { approval: true, wallet: 'sign' },
  eth_signTypedData_v1: { approval: true },
  eth_signTypedData_v2: { approval: true },
  eth_signTypedData_v3: { approval: true, wallet: 'sign' },
  eth_signTypedData_v4: { approval: true, wallet: 'sign' },
  personal_sign: { approval: true, wallet: 'sign' },
  wallet_addEthereumChain: { approval: true, wallet: 'answer' },
  wallet_switchEthereumChain: { approval: true, wallet: 'answer' },
  wallet_getPermissions: { approval: true },
  wallet_requestPermissions: { approval: true },
  wallet_registerOnboarding: { approval: true },
  wallet_watchAsset: { approval: true },
  wallet_scanQRCode: { approval: true },
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
} as const satisfies MethodTable

/** The methods of `table` whose `field` is one of `values`, as their names' type. */
export type SelectedMethods<table extends MethodTable, field extends keyof MethodEntry, value> = {
  [method in keyof table]: table[method] extends { readonly [key in field]: infer held }
    ? held extends value
      ? method
      : never
    : never
}[keyof table] &
  string

/**
 * The methods of `table` whose `field` is one of `values`, in the table's order: how each list of methods (the
 * provider's, the client's, the server's, the wallet's) is made from the one table.
 *
 * @example
 * selectMethods(METHODS, 'wallet', 'sign') // ['eth_sendTransaction', 'eth_signTransaction', 'eth_sign', …]
 */
export function selectMethods<
  const table extends MethodTable,
  field extends keyof MethodEntry,
  const value extends NonNullable<MethodEntry[field]>,
>(table: table, field: field, ...values: value[]): SelectedMethods<table, field, value>[] {
  return Object.keys(table).filter((method) =>
    (values as unknown[]).includes(table[method]?.[field]),
  ) as SelectedMethods<table, field, value>[]
}
