// One-click auth's answer (`wc_sessionAuthenticate`): a CACAO (CAIP-74) whose payload is a sign-in, and the EIP-4361
// text a wallet signed for it, written as WalletConnect's SDK writes it (with the EIP-5573 ReCap statement), so that
// the server checks that text like any other sign-in.
import { SiweMessageError } from './errors.js'

/** A CACAO's payload (CAIP-74 `p`): the sign-in's fields, `iss` naming the account (`did:pkh:eip155:<chain>:<address>`). */
export type CacaoPayload = {
  iss: string
  domain: string
  aud: string
  version: string
  nonce: string
  iat: string
  statement?: string | undefined
  exp?: string | undefined
  nbf?: string | undefined
  requestId?: string | undefined
  resources?: string[] | undefined
}

/** A CACAO as a wallet answers `wc_sessionAuthenticate`: header, payload, signature. */
export type Cacao = {
  h: { t: string }
  p: CacaoPayload
  s: { t: string; s: string; m?: string | undefined }
}

const ISS = /^did:pkh:eip155:(\d+):(0x[0-9a-fA-F]{40})$/
const RECAP = 'urn:recap:'
const RECAP_STATEMENT = 'I further authorize the stated URI to perform the following actions on my behalf: '

/**
 * The EIP-4361 text of a CACAO payload, as the wallet signed it: the statement followed by the words of its ReCap
 * (the last resource, when it is one), then the fields in the EIP's order. Throws {@link SiweMessageError} for an
 * `iss` that is not an eip155 `did:pkh`, a ReCap that does not decode, or a statement with a line break.
 */
export function formatCacaoMessage(payload: CacaoPayload): string {
  const iss = ISS.exec(payload.iss)
  if (!iss) throw new SiweMessageError('iss', 'the CACAO’s iss is not did:pkh:eip155:<chain>:<address>')
  const [, chainId, address] = iss
  let statement = payload.statement || undefined
  const recap = payload.resources?.at(-1)
  if (recap?.includes(RECAP)) statement = recapStatement(statement ?? '', recap)
  if (statement !== undefined && /[\r\n]/.test(statement))
    throw new SiweMessageError('statement', 'the CACAO’s statement has a line break')
  const lines = [
    `${payload.domain} wants you to sign in with your Ethereum account:`,
    address,
    '',
    statement,
    '',
    `URI: ${payload.aud}`,
    `Version: ${payload.version}`,
    `Chain ID: ${chainId}`,
    `Nonce: ${payload.nonce}`,
    `Issued At: ${payload.iat}`,
    payload.exp ? `Expiration Time: ${payload.exp}` : undefined,
    payload.nbf ? `Not Before: ${payload.nbf}` : undefined,
    payload.requestId ? `Request ID: ${payload.requestId}` : undefined,
    payload.resources
      ? `Resources:${payload.resources.map((resource) => `\n- ${resource}`).join('')}`
      : undefined,
  ]
  return lines.filter((line) => line !== undefined).join('\n')
}

/**
 * The statement with its ReCap in words (EIP-5573, as the SDK writes them): per resource, each ability with its
 * actions in order, numbered across resources: `(1) 'request': 'eth_sign', 'personal_sign' for 'eip155'.`
 */
function recapStatement(statement: string, recap: string): string {
  if (statement.includes(RECAP_STATEMENT)) return statement
  const att = decodeRecap(recap)
  let counter = 0
  const parts = Object.entries(att).map(([resource, abilities]) => {
    const actions = Object.keys(abilities)
      .map((key) => {
        const [ability = '', action = ''] = key.split('/')
        return { ability, action }
      })
      .sort((a, b) => a.action.localeCompare(b.action))
    const byAbility = new Map<string, string[]>()
    for (const { ability, action } of actions)
      byAbility.set(ability, [...(byAbility.get(ability) ?? []), action])
    return [...byAbility]
      .map(([ability, list]) => `(${++counter}) '${ability}': '${list.join("', '")}' for '${resource}'.`)
      .join(', ')
      .replace('.,', '.')
  })
  return `${statement ? `${statement} ` : ''}${RECAP_STATEMENT}${parts.join(' ')}`
}

/** A ReCap's `att` (resource → ability/action → limits), from `urn:recap:` + base64 (padding optional) of its JSON. */
function decodeRecap(recap: string): Record<string, Record<string, unknown>> {
  let decoded: unknown
  try {
    decoded = JSON.parse(Buffer.from(recap.replace(RECAP, ''), 'base64').toString('utf8'))
  } catch {
    throw new SiweMessageError('resources', 'the ReCap is not base64 JSON')
  }
  const att = (decoded as { att?: unknown } | null)?.att
  if (!att || typeof att !== 'object' || Array.isArray(att) || Object.keys(att).length === 0)
    throw new SiweMessageError('resources', 'the ReCap has no resources')
  for (const abilities of Object.values(att))
    if (
      !abilities ||
      typeof abilities !== 'object' ||
      Array.isArray(abilities) ||
      Object.keys(abilities).length === 0
    )
      throw new SiweMessageError('resources', 'a ReCap resource has no abilities')
  return att as Record<string, Record<string, unknown>>
}
