// Who may open a v2 socket: the project ids a relay serves and the page origins allowed for each, the rules
// WalletConnect's hosted relay applies (shared/protocol/walletconnect-network.md), as options of our own relay.
import { InvalidBridgeOptionsError } from '../errors.js'

/** Why an upgrade was refused, in both of the relay's refusal styles. */
export type RelayRefusal = {
  kind: 'project-missing' | 'project-unknown' | 'origin'
  /** HTTP status of an `http`-style refusal. */
  status: 403
  /** Body of an `http`-style refusal. */
  body: string
  /** Reason of a `close`-style refusal (code 3000): WalletConnect's relay's own words. */
  reason: string
}

/** The admission options of `createRelay`. */
export type AdmissionParameters = {
  projectIds?: readonly string[] | undefined
  projects?: Readonly<Record<string, readonly string[]>> | undefined
  allowedOrigins?: readonly string[] | undefined
}

/** Decides whether an upgrade naming `projectId` (`null`: none) from `origin` (`undefined`: no header) may connect. */
export type Admit = (projectId: string | null, origin: string | undefined) => RelayRefusal | undefined

const REFUSALS = {
  'project-missing': { body: 'Missing projectId', reason: 'Project ID is missing' },
  'project-unknown': { body: 'Unknown projectId', reason: 'Project not found' },
  origin: { body: 'Unauthorized: origin not allowed', reason: 'Unauthorized: origin not allowed' },
} as const

const refusal = (kind: RelayRefusal['kind']): RelayRefusal => ({ kind, status: 403, ...REFUSALS[kind] })

// A page served from the developer's own machine is always allowed, as on WalletConnect's relay.
const LOCAL_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]'])

/** One allow-list entry: a full origin (`https://app.example`) or a bare `host[:port]` matching any scheme. */
type OriginRule = { origin: string } | { host: string }

function parseOriginRule(entry: string): OriginRule {
  const text = entry.trim()
  try {
    if (text.includes('://')) {
      const url = new URL(text)
      if (url.origin === 'null' || (url.pathname !== '/' && url.pathname !== '') || url.search || url.hash)
        throw new Error('not an origin')
      return { origin: url.origin }
    }
    const url = new URL(`https://${text}`)
    if (url.pathname !== '/' || url.search || url.hash || url.username) throw new Error('not a host')
    // `https://` drops :443 from `host`; a bare `example.com:443` names the port on purpose.
    return { host: /:\d+$/.test(text) ? `${url.hostname}:${text.split(':').pop()}` : url.hostname }
  } catch {
    throw new InvalidBridgeOptionsError(
      `Invalid allowed origin: ${JSON.stringify(entry)} (expected scheme://host[:port] or host[:port])`,
    )
  }
}

function matches(rule: OriginRule, url: URL): boolean {
  if ('origin' in rule) return rule.origin === url.origin
  const port = url.port || (url.protocol === 'https:' ? '443' : url.protocol === 'http:' ? '80' : '')
  return rule.host === url.hostname || rule.host === `${url.hostname}:${port}`
}

/**
 * Builds the admission check of a relay. Without `projects`, `projectIds` and `allowedOrigins` everyone is admitted
 * (today's behaviour). A project's allowed origins are its own list plus `allowedOrigins`; when both are empty every
 * origin is. An upgrade without an `Origin` header (a Node SDK, a phone wallet) and pages at localhost, 127.0.0.1 or
 * [::1] are always admitted.
 *
 * @throws {InvalidBridgeOptionsError} for an allow-list entry that is not an origin or a host.
 */
export function createAdmission(parameters: AdmissionParameters): Admit {
  const { projectIds, projects, allowedOrigins } = parameters
  const global = (allowedOrigins ?? []).map(parseOriginRule)
  const perProject = new Map<string, OriginRule[]>()
  for (const id of projectIds ?? []) perProject.set(id, global)
  for (const [id, origins] of Object.entries(projects ?? {})) {
    if (!Array.isArray(origins))
      throw new InvalidBridgeOptionsError(`Invalid projects: the origins of ${id} must be an array`)
    perProject.set(id, [...origins.map(parseOriginRule), ...global])
  }
  const checksProjects = projectIds !== undefined || projects !== undefined
  if (!checksProjects && global.length === 0) return () => undefined

  const originAllowed = (origin: string | undefined, rules: readonly OriginRule[]) => {
    if (origin === undefined || rules.length === 0) return true
    let url: URL
    try {
      url = new URL(origin)
    } catch {
      return false
    }
    if (LOCAL_HOSTS.has(url.hostname)) return true
    return rules.some((rule) => matches(rule, url))
  }

  return (projectId, origin) => {
    if (!checksProjects) return originAllowed(origin, global) ? undefined : refusal('origin')
    if (!projectId) return refusal('project-missing')
    const rules = perProject.get(projectId)
    if (!rules) return refusal('project-unknown')
    return originAllowed(origin, rules) ? undefined : refusal('origin')
  }
}
