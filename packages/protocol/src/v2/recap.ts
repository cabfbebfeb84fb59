// ReCaps (EIP-5573): what a sign-in also authorizes, as the last of its resources — `urn:recap:` + base64 (no padding)
// of `{"att":{"<resource>":{"<ability>/<action>":[<limits>],…}}}`. WalletConnect's one-click auth lists the JSON-RPC
// methods a dapp may call as `eip155` → `request/<method>`, the limits `{}` or `{ chains }` (what the wallet grants).
import { decodeBase64, encodeBase64 } from './base64.js'
import { InvalidCacaoError } from './errors.js'

/** A decoded ReCap's `att`: resource → `ability/action` → its limits. */
export type Recap = Record<string, Record<string, unknown[]>>

const RECAP = 'urn:recap:'
const byName = (a: string, b: string) => a.localeCompare(b)

/**
 * A ReCap granting `ability/<action>` on `namespace` for each action (sorted, as the SDK writes them; limits `{}`).
 *
 * @example
 * createRecap('eip155', 'request', ['personal_sign', 'eth_sendTransaction'])
 * // 'urn:recap:eyJhdHQiOnsiZWlwMTU1Ijp7InJlcXVlc3QvZXRoX3NlbmRUcmFuc2FjdGlvbiI6W3t9XSwicmVxdWVzdC9wZXJzb25hbF9zaWduIjpbe31dfX19'
 */
export function createRecap(namespace: string, ability: string, actions: string[]): string {
  const abilities = Object.fromEntries(
    [...actions].sort(byName).map((action) => [`${ability}/${action}`, [{}]]),
  )
  return encodeRecap({ [namespace]: abilities })
}

/** Two ReCaps as one (resources and abilities united and sorted; `a`'s limits win), as the SDK merges them. */
export function mergeRecaps(a: string, b: string): string {
  const first = decodeRecap(a)
  const second = decodeRecap(b)
  const merged: Recap = {}
  for (const resource of [...new Set([...Object.keys(first), ...Object.keys(second)])].sort(byName)) {
    const abilities = { ...second[resource], ...first[resource] }
    merged[resource] = Object.fromEntries(
      Object.keys(abilities)
        .sort(byName)
        .map((key) => [key, abilities[key] ?? []]),
    )
  }
  return encodeRecap(merged)
}

/**
 * The ReCap of a sign-in's resources (the last one, when it is a `urn:recap:`), decoded; `undefined` when there is
 * none. Throws {@link InvalidCacaoError} (`resources`) for one that does not decode or grants nothing.
 */
export function readRecap(resources: readonly string[] | undefined): Recap | undefined {
  const last = resources?.at(-1)
  return last?.includes(RECAP) ? decodeRecap(last) : undefined
}

/**
 * What a sign-in's ReCap grants, per resource and ability, for a wallet to put in words ("Sign messages
 * (personal_sign)"): `[{ namespace: 'eip155', ability: 'request', actions: ['personal_sign'] }]`; `[]` without one.
 */
export function describeRecap(
  resources: readonly string[] | undefined,
): { namespace: string; ability: string; actions: string[] }[] {
  const recap = readRecap(resources) ?? {}
  return Object.entries(recap).flatMap(([namespace, abilities]) => {
    const byAbility = new Map<string, string[]>()
    for (const key of Object.keys(abilities)) {
      const [ability = '', action = ''] = key.split('/')
      byAbility.set(ability, [...(byAbility.get(ability) ?? []), action])
    }
    return [...byAbility].map(([ability, actions]) => ({ namespace, ability, actions }))
  })
}

/** The JSON-RPC methods a sign-in's ReCap grants on `eip155` (its `request/<method>` actions), the SDK's reading. */
export function getRecapMethods(resources: readonly string[] | undefined): string[] {
  const eip155 = readRecap(resources)?.eip155 ?? {}
  return Object.keys(eip155).map((key) => key.split('/')[1] ?? '')
}

/** The chains a ReCap's limits name (`[{ chains: [...] }]`, as a wallet narrows the request), in order, once each. */
export function getRecapChains(resources: readonly string[] | undefined): string[] {
  const chains = Object.values(readRecap(resources) ?? {}).flatMap((abilities) =>
    Object.values(abilities).flatMap((limits) => {
      const named = (limits[0] as { chains?: unknown } | undefined)?.chains
      return Array.isArray(named) ? named.filter((chain): chain is string => typeof chain === 'string') : []
    }),
  )
  return [...new Set(chains)]
}

function encodeRecap(att: Recap): string {
  return RECAP + encodeBase64(new TextEncoder().encode(JSON.stringify({ att }))).replace(/=+$/, '')
}

/** A ReCap's `att`, checked as the SDK checks it (resources, each with abilities, each with a list of limits). */
export function decodeRecap(recap: string): Recap {
  const text = recap.replace(RECAP, '')
  const bytes = decodeBase64(text.padEnd(Math.ceil(text.length / 4) * 4, '='))
  let decoded: unknown
  try {
    if (!bytes) throw new TypeError()
    decoded = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes))
  } catch {
    throw new InvalidCacaoError('resources', 'the ReCap is not base64 JSON')
  }
  const att = (decoded as { att?: unknown } | null)?.att
  if (!isObject(att) || Object.keys(att).length === 0)
    throw new InvalidCacaoError('resources', 'the ReCap has no resources')
  for (const abilities of Object.values(att))
    if (!isObject(abilities) || Object.keys(abilities).length === 0)
      throw new InvalidCacaoError('resources', 'a ReCap resource has no abilities')
  return att as Recap
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  !!value && typeof value === 'object' && !Array.isArray(value)
