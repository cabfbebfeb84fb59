import type { Cacao } from '@pairlink/protocol/v2'
import type { ConnectAuthentication } from './actions/connect.js'
import { checkCacaos } from './checkCacaos.js'
import { SDK_ERRORS, SignError } from './errors.js'
import { dropTopic, type Internal, save, sendError } from './internal.js'
import type { Proposal, ProposalAuthentication, ProposalRequests } from './types.js'

const isString = (value: unknown): value is string => typeof value === 'string'
const isStrings = (value: unknown): value is string[] => Array.isArray(value) && value.every(isString)

/** Whether `value` has the shape of a sign-in request: its text can be written from it, its chains read. */
function isAuthentication(value: unknown): value is ProposalAuthentication {
  if (!value || typeof value !== 'object') return false
  const entry = value as Record<string, unknown>
  return (
    ['domain', 'aud', 'nonce', 'iat'].every((key) => isString(entry[key])) &&
    isStrings(entry.chains) &&
    entry.chains.length > 0 &&
    ['type', 'version', 'statement', 'exp', 'nbf', 'requestId'].every(
      (key) => entry[key] === undefined || isString(entry[key]),
    ) &&
    (entry.resources === undefined || isStrings(entry.resources))
  )
}

/**
 * Wallet: a proposal's `requests` as a wallet keeps them (only `authentication`: the others, such as `walletPay`, are not
 * Pairlink's), `undefined` when it has none, or `null` when they are malformed: the proposal is then refused, as one
 * with malformed namespaces is (the SDK does not look; a wallet must, before it shows the text to sign).
 */
export function readProposalRequests(value: unknown): ProposalRequests | undefined | null {
  if (value === undefined || value === null) return undefined
  if (typeof value !== 'object') return null
  const { authentication } = value as { authentication?: unknown }
  if (authentication === undefined || authentication === null) return undefined
  if (
    !Array.isArray(authentication) ||
    authentication.length === 0 ||
    !authentication.every(isAuthentication)
  )
    return null
  return { authentication }
}

/**
 * Dapp: `connect`'s sign-ins as the proposal carries them (the SDK's `AuthTypes.AuthenticateParams`): `uri` becomes
 * `aud`; one without a chain is refused (5100), as `authenticate` refuses it.
 */
export function toAuthentication(entries: readonly ConnectAuthentication[]): ProposalAuthentication[] {
  return entries.map(({ uri, ttl, ...entry }) => {
    if (entry.chains.length === 0) throw new SignError(SDK_ERRORS.UNSUPPORTED_CHAINS)
    return { ...entry, type: 'caip122', aud: uri, version: '1', iat: new Date().toISOString() }
  })
}

/**
 * Dapp: the CACAOs a wallet settled a proposal with, for its `requests.authentication`, checked as `authenticate`
 * checks its answer (`checkCacaos`, the app's `verifyCacao`). Resolves with them, with `undefined` when the wallet
 * signed none (the SDK lets it) or when nobody can check them (a reload took the app's `connect` and its
 * `verifyCacao`: the session is kept without them), or with `false` once the settlement was refused: the wallet hears
 * 7000, `approval()` rejects with it, and nothing of the session is kept.
 */
export async function takeAuthentication(
  internal: Internal,
  topic: string,
  id: number,
  proposal: Proposal,
  answered: unknown,
): Promise<Cacao[] | undefined | false> {
  const { state } = internal
  const approval = internal.approvals.get(proposal.id)
  const requests = proposal.requests?.authentication
  if (!approval || !requests || (Array.isArray(answered) && answered.length === 0)) return undefined
  const refused = await checkCacaos(answered, requests, approval.verifyCacao)
  if (!state.proposed[proposal.id]) return false
  if (!refused) return answered as Cacao[]
  const error = {
    code: SDK_ERRORS.SESSION_SETTLEMENT_FAILED.code,
    message: `${SDK_ERRORS.SESSION_SETTLEMENT_FAILED.message} ${refused}`,
  }
  await sendError(internal, topic, id, 'wc_sessionSettle', error).catch(() => {})
  delete state.proposed[proposal.id]
  delete state.keys[proposal.proposer.publicKey]
  dropTopic(internal, topic)
  save(internal)
  approval.reject(new SignError(error))
  internal.approvals.delete(proposal.id)
  return false
}
