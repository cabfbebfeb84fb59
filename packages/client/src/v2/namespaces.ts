import { SDK_ERRORS } from './errors.js'
import type { ErrorResponse, ProposalNamespace, SessionNamespace } from './types.js'

type AnyNamespace = ProposalNamespace | SessionNamespace

/**
 * The CAIP-2 chains of a namespace: its `chains`, else the chains of its CAIP-10 accounts, else its key when the key
 * is a chain itself (`eip155:1`), as the SDK's `getNamespacesChains` reads them.
 */
function getChains(key: string, namespace: AnyNamespace): string[] {
  const chains = new Set(namespace.chains ?? [])
  for (const account of 'accounts' in namespace ? namespace.accounts : [])
    chains.add(account.split(':').slice(0, 2).join(':'))
  if (chains.size === 0 && key.includes(':')) chains.add(key)
  return [...chains]
}

/** The namespaces that hold `chainId`. */
function holding<namespace extends AnyNamespace>(namespaces: Record<string, namespace>, chainId: string) {
  return Object.entries(namespaces)
    .filter(([key, namespace]) => getChains(key, namespace).includes(chainId))
    .map(([, namespace]) => namespace)
}

/** Whether a session's namespaces hold `chainId` (a CAIP-2 id such as `eip155:1`). */
export const hasChain = (namespaces: Record<string, AnyNamespace>, chainId: string) =>
  holding(namespaces, chainId).length > 0

/** Whether `method` may be called on `chainId` in these namespaces. */
export const hasMethod = (namespaces: Record<string, AnyNamespace>, chainId: string, method: string) =>
  holding(namespaces, chainId).some((namespace) => namespace.methods.includes(method))

/** Whether `event` may be emitted on `chainId` in these namespaces. */
export const hasEvent = (namespaces: Record<string, AnyNamespace>, chainId: string, event: string) =>
  holding(namespaces, chainId).some((namespace) => namespace.events.includes(event))

/**
 * The first thing a proposal's required namespaces ask for that a wallet's grant (`namespaces`) lacks, as the spec's
 * error naming it: 5104 a namespace, 5100 chains, 5101 methods, 5102 events (`Unsupported chains. eip155:5`);
 * `undefined` when the grant satisfies them.
 */
export function findUnsatisfied(
  required: Record<string, ProposalNamespace>,
  namespaces: Record<string, SessionNamespace>,
): ErrorResponse | undefined {
  const granted = Object.keys(namespaces).map((key) => key.split(':')[0])
  const lacking = (error: ErrorResponse, what: string[]) =>
    what.length > 0 ? { code: error.code, message: `${error.message} ${what.join(', ')}` } : undefined
  for (const [key, namespace] of Object.entries(required)) {
    const chains = getChains(key, namespace)
    const error =
      lacking(SDK_ERRORS.UNSUPPORTED_NAMESPACE_KEY, granted.includes(key.split(':')[0]) ? [] : [key]) ??
      lacking(
        SDK_ERRORS.UNSUPPORTED_CHAINS,
        chains.filter((chain) => !hasChain(namespaces, chain)),
      ) ??
      lacking(
        SDK_ERRORS.UNSUPPORTED_METHODS,
        namespace.methods.filter((method) => !chains.every((chain) => hasMethod(namespaces, chain, method))),
      ) ??
      lacking(
        SDK_ERRORS.UNSUPPORTED_EVENTS,
        namespace.events.filter((event) => !chains.every((chain) => hasEvent(namespaces, chain, event))),
      )
    if (error) return error
  }
}

/**
 * Whether `value` has the shape of session namespaces: each an object with string arrays `accounts`, `methods`,
 * `events`, every account CAIP-10 (`namespace:reference:address`).
 */
export function isSessionNamespaces(value: unknown): value is Record<string, SessionNamespace> {
  if (!value || typeof value !== 'object') return false
  return Object.values(value).every(
    (namespace: Partial<SessionNamespace> | null) =>
      !!namespace &&
      isStrings(namespace.accounts) &&
      namespace.accounts.every((account) => account.split(':').length === 3) &&
      isStrings(namespace.methods) &&
      isStrings(namespace.events) &&
      (namespace.chains === undefined || isStrings(namespace.chains)),
  )
}

/** Whether `value` has the shape of proposal namespaces (`chains`, `methods`, `events` string arrays). */
export function isProposalNamespaces(value: unknown): value is Record<string, ProposalNamespace> {
  if (!value || typeof value !== 'object') return false
  return Object.values(value).every(
    (namespace: Partial<ProposalNamespace> | null) =>
      !!namespace &&
      isStrings(namespace.methods) &&
      isStrings(namespace.events) &&
      (namespace.chains === undefined || isStrings(namespace.chains)),
  )
}

const isStrings = (value: unknown): value is string[] =>
  Array.isArray(value) && value.every((item) => typeof item === 'string')
