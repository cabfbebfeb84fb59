// One-click auth (`wc_sessionAuthenticate`): the sign-in a dapp asks for (CAIP-122), the CACAO (CAIP-74) a wallet
// answers with, and the EIP-4361 text signed for it, written as WalletConnect's SDK writes it (with the EIP-5573 ReCap
// statement), byte for byte.
import { hexToBytes } from '../hex.js'
import { InvalidCacaoError } from './errors.js'
import { decodeRecap, getRecapChains, getRecapMethods } from './recap.js'

/** The sign-in a dapp asks for in `wc_sessionAuthenticate` (the SDK's `authPayload`, CAIP-122). */
export type AuthPayload = {
  type: 'caip122'
  /** CAIP-2 chains the dapp accepts a sign-in on (`eip155:1`). */
  chains: string[]
  domain: string
  /** The URI the sign-in is for (EIP-4361 `URI`). */
  aud: string
  version: '1'
  nonce: string
  /** ISO 8601 time of the request. */
  iat: string
  statement?: string | undefined
  exp?: string | undefined
  nbf?: string | undefined
  requestId?: string | undefined
  resources?: string[] | undefined
}

/** A CACAO's payload (CAIP-74 `p`): the sign-in's fields, `iss` naming the account (`did:pkh:eip155:<chain>:<address>`). */
export type CacaoPayload = Omit<AuthPayload, 'type' | 'chains' | 'version'> & {
  iss: string
  version: string
}

/** A CACAO as a wallet answers `wc_sessionAuthenticate`: header, payload, signature. */
export type Cacao = {
  h: { t: 'caip122' | (string & {}) }
  p: CacaoPayload
  s: { t: 'eip191' | 'eip1271' | (string & {}); s: string; m?: string | undefined }
}

/** A namespace built from CACAOs: the accounts they sign for and the methods their ReCaps grant. */
export type AuthNamespace = { chains: string[]; accounts: string[]; methods: string[]; events: string[] }

const ISS = /^did:pkh:eip155:(\d+):(0x[0-9a-fA-F]{40})$/
const RECAP_STATEMENT = 'I further authorize the stated URI to perform the following actions on my behalf: '

/** The chain (`eip155:1`) and address of a CACAO's `iss`; throws {@link InvalidCacaoError} (`iss`) for another form. */
export function parseIss(iss: string): { chain: string; chainId: string; address: string } {
  const match = ISS.exec(iss)
  if (!match) throw new InvalidCacaoError('iss', 'the CACAO’s iss is not did:pkh:eip155:<chain>:<address>')
  const [, chainId = '', address = ''] = match
  return { chain: `eip155:${chainId}`, chainId, address }
}

/**
 * The EIP-4361 text of a CACAO payload, as the wallet signed it: the statement followed by the words of its ReCap
 * (the last resource, when it is one), then the fields in the EIP's order. Throws {@link InvalidCacaoError} for an
 * `iss` that is not an eip155 `did:pkh`, a ReCap that does not decode, or a statement with a line break.
 *
 * @example
 * const message = formatCacaoMessage(cacao.p)
 */
export function formatCacaoMessage(payload: CacaoPayload): string {
  const { chainId, address } = parseIss(payload.iss)
  let statement = payload.statement || undefined
  const recap = payload.resources?.at(-1)
  if (recap?.includes('urn:recap:')) statement = recapStatement(statement ?? '', recap)
  if (statement !== undefined && /[\r\n]/.test(statement))
    throw new InvalidCacaoError('statement', 'the CACAO’s statement has a line break')
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
 * The text a wallet signs to answer `request` as `iss` (`did:pkh:eip155:<chain>:<address>`): the SDK's
 * `formatAuthMessage`. Sign it (`personal_sign`) and send `{ h: { t: 'caip122' }, p: { ...request, iss }, s }`.
 *
 * @example
 * const message = formatAuthMessage({ request: params.authPayload, iss: `did:pkh:eip155:1:${address}` })
 */
export function formatAuthMessage(parameters: { request: AuthPayload | CacaoPayload; iss: string }): string {
  const { type: _type, chains: _chains, ...fields } = parameters.request as AuthPayload
  return formatCacaoMessage({ ...fields, iss: parameters.iss })
}

/**
 * The statement with its ReCap in words (EIP-5573, as the SDK writes them): per resource, each ability with its
 * actions in order, numbered across resources: `(1) 'request': 'eth_sign', 'personal_sign' for 'eip155'.`
 */
function recapStatement(statement: string, recap: string): string {
  if (statement.includes(RECAP_STATEMENT)) return statement
  let counter = 0
  const parts = Object.entries(decodeRecap(recap)).map(([resource, abilities]) => {
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

/**
 * The session namespaces one-click auth settles on, both sides alike (the SDK's `buildNamespacesFromAuth`): per CACAO
 * its `iss` account on its chain and on the chains its ReCap names, the methods its ReCap grants, the two events.
 *
 * @example
 * buildAuthNamespaces(cacaos) // { eip155: { chains: ['eip155:1'], accounts: ['eip155:1:0x…'], methods, events } }
 */
export function buildAuthNamespaces(cacaos: readonly Cacao[]): Record<string, AuthNamespace> {
  const methods: string[] = []
  const accounts: string[] = []
  for (const { p } of cacaos) {
    const { chain, address } = parseIss(p.iss)
    methods.push(...getRecapMethods(p.resources))
    for (const each of [chain, ...getRecapChains(p.resources)]) accounts.push(`${each}:${address}`)
  }
  const namespaces: Record<string, AuthNamespace> = {}
  for (const account of new Set(accounts)) {
    const [key = '', reference = ''] = account.split(':')
    const namespace = namespaces[key] ?? { chains: [], accounts: [], methods: [], events: [] }
    namespaces[key] = namespace
    namespace.accounts.push(account)
    namespace.chains.push(`${key}:${reference}`)
  }
  for (const namespace of Object.values(namespaces)) {
    namespace.methods = [...new Set(methods)]
    namespace.events = ['chainChanged', 'accountsChanged']
  }
  return namespaces
}

/**
 * Whether a CACAO is signed by its `iss` account's key: an EIP-191 signature (65 bytes r‖s‖v, v 27/28 or 0/1) of
 * {@link formatCacaoMessage}'s text that recovers to the `iss` address. `false` for anything else: a malformed
 * CACAO, another signature type (`eip1271` needs a chain to check), a wrong signer. The curve code loads on the first
 * call (a chunk of its own).
 *
 * @example
 * if (!(await checkCacaoSignature(cacao))) throw new Error('not signed by its account')
 */
export async function checkCacaoSignature(cacao: Cacao): Promise<boolean> {
  try {
    if (cacao.s.t !== 'eip191') return false
    const { address } = parseIss(cacao.p.iss)
    const message = formatCacaoMessage(cacao.p)
    const signature = hexToBytes(cacao.s.s.replace(/^0x/, ''))
    if (signature?.length !== 65) return false
    const v = signature[64] as number
    const recovery = v >= 27 ? v - 27 : v
    if (recovery !== 0 && recovery !== 1) return false
    const { recoverPersonalSigner } = await import('./nobleSecp256k1.js')
    return (
      recoverPersonalSigner(message, signature.subarray(0, 64), recovery) === address.slice(2).toLowerCase()
    )
  } catch {
    return false
  }
}
