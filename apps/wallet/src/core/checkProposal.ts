import { type ErrorResponse, type Proposal, SDK_ERRORS } from '@pairlink/client/v2'
import { parseCaipChain, WALLET_EVENTS, WALLET_METHODS } from './namespaces.js'

/** Why the wallet must refuse a proposal: the spec's error for the dapp, and the same in words for the person. */
export type ProposalRefusal = {
  /** What the dapp is told: 5104, 5100, 5101 or 5102 with what is missing (`Unsupported chains. eip155:999`). */
  error: ErrorResponse
  /** For the person: `it requires the chain eip155:999, which this wallet does not support`. */
  reason: string
}

/**
 * What a proposal's required namespaces ask for that this wallet cannot give (one `eip155` namespace: the chains it
 * supports, its methods and events), as the refusal the WalletConnect spec asks of a wallet; `undefined` when it can
 * approve. Optional namespaces never refuse: the wallet grants what it can of them.
 *
 * @example
 * checkProposal({ requiredNamespaces: { eip155: { chains: ['eip155:999'], methods: [], events: [] } } }, new Set([1]))
 * // { error: { code: 5100, message: 'Unsupported chains. eip155:999' }, reason: 'it requires the chain eip155:999, …' }
 */
export function checkProposal(
  proposal: Pick<Proposal, 'requiredNamespaces'>,
  supportedChains: ReadonlySet<number>,
): ProposalRefusal | undefined {
  const has = (list: readonly string[]) => (item: string) => list.includes(item)
  for (const [key, namespace] of Object.entries(proposal.requiredNamespaces ?? {})) {
    const name = key.split(':')[0] as string
    if (name !== 'eip155')
      return {
        error: lacking(SDK_ERRORS.UNSUPPORTED_NAMESPACE_KEY, [key]),
        reason: `it requires the ${name} namespace, and this wallet has EVM (eip155) accounts only`,
      }
    const chains = namespace.chains ?? (key.includes(':') ? [key] : [])
    const refusal =
      refuse(SDK_ERRORS.UNSUPPORTED_CHAINS, 'chain', 'support', (chain) =>
        supportedChains.has(parseCaipChain(chain) ?? 0),
      )(chains) ??
      refuse(SDK_ERRORS.UNSUPPORTED_METHODS, 'method', 'implement', has(WALLET_METHODS))(namespace.methods) ??
      refuse(SDK_ERRORS.UNSUPPORTED_EVENTS, 'event', 'emit', has(WALLET_EVENTS))(namespace.events)
    if (refusal) return refusal
  }
}

/** The spec's error naming what is missing (`Unsupported chains. eip155:999`), as the SDK words it. */
const lacking = (error: ErrorResponse, missing: string[]): ErrorResponse => ({
  code: error.code,
  message: `${error.message} ${missing.join(', ')}`,
})

/** The refusal for the items of one kind that `granted` rejects, or `undefined` when it grants them all. */
const refuse =
  (error: ErrorResponse, kind: string, verb: string, granted: (item: string) => boolean) =>
  (items: readonly string[]): ProposalRefusal | undefined => {
    const missing = items.filter((item) => !granted(item))
    if (missing.length === 0) return undefined
    const what = `the ${kind}${missing.length > 1 ? 's' : ''} ${missing.join(', ')}`
    return {
      error: lacking(error, missing),
      reason: `it requires ${what}, which this wallet does not ${verb}`,
    }
  }
