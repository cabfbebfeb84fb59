import { ANSWERED_METHODS, APPROVAL_METHODS, type MethodEntry, type MethodTable } from './methods.js'

/**
 * Methods that need the person's approval in the wallet (`approval` in {@link METHODS}: `APPROVAL_METHODS`). Their
 * requests are published with `silent: false` so the bridge triggers the wallet's push webhook (reference §4.8, the
 * 1.8.0 list, in its order).
 */
export const SIGNING_METHODS: readonly (keyof typeof APPROVAL_METHODS)[] = /* @__PURE__ */ Object.keys(
  APPROVAL_METHODS,
) as (keyof typeof APPROVAL_METHODS)[]

/** A row of `APPROVAL_METHODS` as a row of {@link METHODS}. */
type ApprovalEntry<wallet> = wallet extends 'sign' | 'answer'
  ? { readonly approval: true; readonly wallet: wallet }
  : { readonly approval: true }

/**
 * Every JSON-RPC method Pairlink's packages and apps treat apart from "anything else goes to the node", and what each
 * is to each of them: the one table to edit when a method is added (see `packages/provider/README.md`, "How to add
 * a method"). Its rows are written in `methods.ts`: `APPROVAL_METHODS` first, then `ANSWERED_METHODS`.
 */
export const METHODS: {
  readonly [method in keyof typeof APPROVAL_METHODS]: ApprovalEntry<(typeof APPROVAL_METHODS)[method]>
} & typeof ANSWERED_METHODS = /* @__PURE__ */ toTable(APPROVAL_METHODS, ANSWERED_METHODS)

function toTable(
  approved: Readonly<Record<string, 'sign' | 'answer' | false>>,
  answered: MethodTable,
): never {
  const rows: Record<string, MethodEntry> = {}
  for (const [method, wallet] of Object.entries(approved))
    rows[method] = wallet ? { approval: true, wallet } : { approval: true }
  // A method in both lists keeps `approval`: the server's `/rpc` then refuses it whatever its other row says.
  for (const [method, entry] of Object.entries(answered))
    rows[method] = { ...entry, ...rows[method] } as MethodEntry
  return rows as never
}

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
