import { METHODS, type MethodTable, selectMethods } from '@pairlink/protocol'

/**
 * The JSON-RPC methods `/rpc` forwards of `table`: those it marks `node` (reads, and raw transactions), never one the
 * person approves in a wallet, whatever the table says (a security boundary: the node must not be asked to sign).
 */
function listRpcMethods(table: MethodTable): ReadonlySet<string> {
  return new Set(
    selectMethods(table, 'node', 'read', 'broadcast').filter((method) => !table[method]?.approval),
  )
}

/** The JSON-RPC methods `/rpc` forwards: what a browser dapp and the reference wallet read, and raw transactions. */
export const RPC_METHODS: ReadonlySet<string> = listRpcMethods(METHODS)
