import type { Proposal, Session, SessionNamespace } from '@pairlink/client/v2'
import { METHODS, selectMethods } from '@pairlink/protocol'
import { parseChainId } from './chains.js'

/**
 * The methods a v2 session is granted: what the signing core signs and what the wallet answers itself (`wallet` in
 * protocol's `METHODS`).
 */
export const WALLET_METHODS = selectMethods(METHODS, 'wallet', 'sign', 'answer')

/** A method the wallet signs or answers. */
export type WalletMethod = (typeof WALLET_METHODS)[number]

/** The number of a CAIP-2 eip155 chain (`eip155:10` → 10), or `undefined`. */
export const parseCaipChain = (chain: string): number | undefined =>
  chain.startsWith('eip155:') ? parseChainId(chain.slice('eip155:'.length)) : undefined

/** The events a v2 session is granted. */
export const WALLET_EVENTS = ['chainChanged', 'accountsChanged'] as const

/** What a dapp's v2 proposal asks for, all namespaces of it merged: what the wallet shows before Approve. */
export type ProposalSummary = {
  /** Every CAIP-2 chain asked for, required ones first (`eip155:1`, `solana:…`). */
  chains: string[]
  /** The eip155 chains among them, as numbers. */
  evmChains: number[]
  methods: string[]
  events: string[]
  /** Why the wallet must refuse it, for the person: set when a required namespace asks for what it cannot give. */
  refused?: string | undefined
}

/**
 * Merges a proposal's required and optional namespaces into what it asks for. The 2.2x SDK sends only optional
 * ones (it folds required into optional), so the two count alike.
 *
 * @example
 * summarizeProposal(proposal) // { chains: ['eip155:1'], evmChains: [1], methods: ['personal_sign'], events: [] }
 */
export function summarizeProposal(
  proposal: Pick<Proposal, 'requiredNamespaces' | 'optionalNamespaces'>,
): ProposalSummary {
  const chains = new Set<string>()
  const methods = new Set<string>()
  const events = new Set<string>()
  for (const namespaces of [proposal.requiredNamespaces, proposal.optionalNamespaces]) {
    for (const [key, namespace] of Object.entries(namespaces ?? {})) {
      const listed = namespace.chains ?? (key.includes(':') ? [key] : [])
      for (const chain of listed) chains.add(chain)
      for (const method of namespace.methods) methods.add(method)
      for (const event of namespace.events) events.add(event)
    }
  }
  const evmChains = [...chains].flatMap((chain) => parseCaipChain(chain) ?? [])
  return { chains: [...chains], evmChains, methods: [...methods], events: [...events] }
}

/**
 * The eip155 namespace a wallet grants: `chains` (the session's own chain first: dapps take the first as theirs),
 * the account on each, the wallet's methods and events.
 *
 * @example
 * buildNamespaces({ chains: [31337, 1], address }) // { eip155: { chains: ['eip155:31337', 'eip155:1'], … } }
 */
export function buildNamespaces(parameters: {
  chains: readonly number[]
  address: string
}): Record<string, SessionNamespace> {
  const chains = [...new Set(parameters.chains)].map((id) => `eip155:${id}`)
  return {
    eip155: {
      chains,
      accounts: chains.map((chain) => `${chain}:${parameters.address}`),
      methods: [...WALLET_METHODS],
      events: [...WALLET_EVENTS],
    },
  }
}

/** The eip155 chains a session's namespaces grant, as numbers, in order. */
export function getSessionChains(namespaces: Record<string, SessionNamespace>): number[] {
  const ids = Object.entries(namespaces).flatMap(([key, namespace]) => {
    const chains = namespace.chains ?? [
      ...new Set(namespace.accounts.map((a) => a.split(':').slice(0, 2).join(':'))),
    ]
    return (chains.length > 0 ? chains : [key]).flatMap((chain) => parseCaipChain(chain) ?? [])
  })
  return [...new Set(ids)]
}

/** The session settled last (the latest expiry): an older one left in storage is not the wallet's any more. */
export const getLatestSession = (sessions: readonly Session[]): Session | undefined =>
  sessions.filter((s) => s.acknowledged).sort((a, b) => b.expiry - a.expiry)[0]
