import { accessSync, constants, statSync } from 'node:fs'
import { isIP } from 'node:net'
import {
  InvalidBridgeOptionsError,
  isSentinelUrl,
  parseLinkOptions,
  parseRedisOptions,
  RELAY_LIMITS,
  type RedisConfig,
  type RelayLimits,
  readRelayLimits,
  redactRedisUrl,
  relayLimitVariable,
  resolveRelayLimits,
} from '@pairlink/bridge'
import type { NodeLinkOptions } from '@pairlink/bridge/redis'
import {
  WALLETCONNECT_DASHBOARD_URL,
  WALLETCONNECT_EXPLORER_URL,
  WALLETCONNECT_RELAY_URL,
} from '@pairlink/protocol/v2'

/** The server's whole configuration, read once from the environment by {@link loadConfig}. */
export type Config = {
  /** `PORT`: the port to listen on; 0 lets the system pick one. @default 8080 */
  port: number
  /** `HOST`: the address to listen on. @default '127.0.0.1' */
  host: string
  /**
   * `PUBLIC_URL`: the origin browsers use to reach the site (`https://pairlink.example`). It defines the domain and
   * URI Sign-In with Ethereum checks and the only origin the CSRF check accepts. Unset: the listening address.
   */
  publicUrl: URL | undefined
  /** `TRUST_PROXY`: a proxy in front says the scheme (`X-Forwarded-Proto`) and the client's address (`X-Forwarded-For`). @default false */
  trustProxy: boolean
  /** `RPC_URL`: the JSON-RPC node, credentials included; unset starts anvil. Print it only through {@link redactUrl}. */
  rpcUrl: string | undefined
  /**
   * `REDIS_URL`, or `REDIS_SENTINELS` + `REDIS_SENTINEL_MASTER` (+ `REDIS_PASSWORD`, `REDIS_SENTINEL_PASSWORD`) as one
   * `redis+sentinel://` URL: run the bridge and relay on Redis; unset keeps them in memory. Print it only through
   * {@link redactUrl}.
   */
  redisUrl: string | undefined
  /**
   * `REDIS_WAIT_REPLICAS`, `REDIS_WAIT_TIMEOUT_MS`: replicas a kept v2 message must reach before its publish is
   * answered (docs/redis-ha.md). @default 1 replica, 500 ms, with Sentinel; false otherwise
   */
  redisWaitForReplicas: RedisConfig['waitForReplicas']
  /**
   * `REDIS_WRITE_DELAY_MS`: longest a v2 message a reader got waits in the node's memory before it is written to
   * Redis; acked meanwhile, it never is (docs/relay-v2.md). `0`: every message written. @default 1000 (the store's)
   */
  redisWriteDelayMs: number | undefined
  /**
   * `BRIDGE_LINK_LISTEN` (`host:port` or `off`), `BRIDGE_LINK_ADVERTISE` (`host:port`), `BRIDGE_LINK_SECRET`: the
   * links between the Redis bridge's nodes, read as `pairlink-bridge` reads them (`parseLinkOptions`); `false` for
   * `off`. Set only with `REDIS_URL`. It holds the secret: never log it.
   * @default {} (listening on 127.0.0.1, a free port; the secret kept in Redis)
   */
  links: NodeLinkOptions | false
  /** `DATABASE_URL`: PostgreSQL; unset uses the embedded database in {@link Config.dataDir}. */
  databaseUrl: string | undefined
  /** `DATA_DIR`: folder of the embedded database; unset means the caller's default. */
  dataDir: string | undefined
  /** `RELAY_PROJECT_IDS`: the v2 project ids the relay serves (comma-separated); unset accepts any. */
  relayProjectIds: string[] | undefined
  /**
   * `RELAY_ALLOWED_ORIGINS`: the page origins (`https://app.example`, comma-separated) this server's own v2 relay
   * admits; unset admits any.
   */
  relayAllowedOrigins: string[] | undefined
  /** `RELAY_MAX_TTL`, `RELAY_MAX_TOTAL_BYTES`, …: the v2 relay's limits (docs/relay-v2.md, "Limits"); unset, defaults. */
  relayLimits: Partial<RelayLimits>
  /**
   * `WALLETCONNECT_PROJECT_ID` (32 hex characters, from https://dashboard.reown.com), `WALLETCONNECT_RELAY_URL` and
   * `WALLETCONNECT_EXPLORER_URL`: pair the apps through WalletConnect's network, where phone wallets listen.
   * `undefined` without a project id: the apps pair through this server's own relay.
   */
  walletConnect: WalletConnectConfig | undefined
  /** `WALLETS_FILE`: a JSON file of wallets the operator declares able to reach this relay (checked readable here). */
  walletsFile: string | undefined
  /** `BRIDGE_URL`: the bridge the apps put into their `wc:` URIs; unset means this server. */
  bridgeUrl: string | undefined
  /** `LOG_LEVEL`: pino's level. @default 'info' */
  logLevel: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent'
}

/** WalletConnect's network as configured: {@link Config.walletConnect}. */
type WalletConnectConfig = {
  /** `WALLETCONNECT_PROJECT_ID`: sent to browsers, so not a secret; the relay checks pages' origins against it. */
  projectId: string
  /** `WALLETCONNECT_RELAY_URL` (ws or wss). @default 'wss://relay.walletconnect.org' */
  relayUrl: string
  /** `WALLETCONNECT_EXPLORER_URL`: the wallet explorer API (http or https). @default 'https://api.web3modal.org' */
  explorerUrl: string
}

/** A bad environment variable: the message names it and says what it must be, never printing a credential. */
export class ConfigError extends Error {
  override name = 'ConfigError'
}

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const

/**
 * Parses and validates the environment once, so the rest of the server reads one typed object. Throws
 * {@link ConfigError} naming the first bad variable.
 * @example
 * const config = loadConfig(process.env)
 */
export function loadConfig(env: Record<string, string | undefined>): Config {
  const value = (name: string) => {
    const raw = env[name]?.trim()
    return raw === '' ? undefined : raw
  }

  const portText = value('PORT') ?? '8080'
  const port = /^\d+$/.test(portText) ? Number(portText) : Number.NaN
  if (!Number.isInteger(port) || port > 65535)
    throw new ConfigError(`PORT must be a port number, got ${portText}`)

  const host = value('HOST') ?? '127.0.0.1'
  if (!isIP(host) && !/^[a-z0-9]([a-z0-9.-]*[a-z0-9])?$/i.test(host))
    throw new ConfigError(`HOST must be an IP address or a host name (no scheme, no port), got ${host}`)

  const publicText = value('PUBLIC_URL')
  let publicUrl: URL | undefined
  if (publicText !== undefined) {
    publicUrl = url('PUBLIC_URL', publicText, ['http:', 'https:'])
    if (publicUrl.username || publicUrl.password)
      throw new ConfigError('PUBLIC_URL must not carry credentials')
    if (publicUrl.pathname !== '/' || publicUrl.search || publicUrl.hash)
      throw new ConfigError(
        `PUBLIC_URL must be an origin (scheme, host and port only, e.g. https://pairlink.example), got ${redactUrl(publicText)}`,
      )
  }

  const trust = (value('TRUST_PROXY') ?? '0').toLowerCase()
  if (!['0', '1', 'true', 'false'].includes(trust))
    throw new ConfigError(`TRUST_PROXY must be 1 or 0, got ${trust}`)

  const rpcUrl = value('RPC_URL')
  if (rpcUrl !== undefined) url('RPC_URL', rpcUrl, ['http:', 'https:'])
  const redis = redisConfig(env, value)
  const redisUrl = redis?.url
  const links = linkOptions(env, value, redisUrl)
  const databaseUrl = value('DATABASE_URL')
  if (databaseUrl !== undefined) url('DATABASE_URL', databaseUrl, ['postgres:', 'postgresql:'])
  const bridgeUrl = value('BRIDGE_URL')
  if (bridgeUrl !== undefined) url('BRIDGE_URL', bridgeUrl, ['http:', 'https:', 'ws:', 'wss:'])

  const projectText = value('RELAY_PROJECT_IDS')
  const relayProjectIds = projectText?.split(',').map((id) => id.trim())
  const badProject = relayProjectIds?.find((id) => !/^[\w-]{1,128}$/.test(id))
  if (badProject !== undefined)
    throw new ConfigError(
      `RELAY_PROJECT_IDS must be comma-separated project ids (letters, digits, - and _), got ${JSON.stringify(badProject.slice(0, 40))}`,
    )

  const relayAllowedOrigins = origins(value('RELAY_ALLOWED_ORIGINS'))
  const relayLimits = relayLimitsOf(env)
  const walletConnect = walletConnectConfig(value)
  const walletsFile = value('WALLETS_FILE')
  if (walletsFile !== undefined) readableFile(walletsFile)

  const logLevel = (value('LOG_LEVEL') ?? 'info').toLowerCase()
  if (!(LOG_LEVELS as readonly string[]).includes(logLevel))
    throw new ConfigError(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}, got ${logLevel}`)

  return {
    port,
    host,
    publicUrl,
    trustProxy: trust === '1' || trust === 'true',
    rpcUrl,
    redisUrl,
    redisWaitForReplicas: redis?.waitForReplicas ?? false,
    redisWriteDelayMs: redis?.writeDelayMs,
    links,
    databaseUrl,
    dataDir: value('DATA_DIR'),
    bridgeUrl,
    relayProjectIds,
    relayAllowedOrigins,
    relayLimits,
    walletConnect,
    walletsFile,
    logLevel: logLevel as Config['logLevel'],
  }
}

/** The relay's limits from `RELAY_MAX_TTL` and the rest of `RELAY_LIMITS` (docs/relay-v2.md), checked as the relay will. */
function relayLimitsOf(env: Record<string, string | undefined>): Partial<RelayLimits> {
  let read: Partial<RelayLimits>
  try {
    read = readRelayLimits(env, 'RELAY_')
  } catch (error) {
    throw new ConfigError(error instanceof Error ? error.message : String(error))
  }
  for (const limit of RELAY_LIMITS) {
    const value = read[limit.key]
    if (value === undefined) continue
    try {
      resolveRelayLimits({ [limit.key]: value })
    } catch {
      const expected = `${limit.integer ? 'an integer' : 'a number'} ${limit.mayBeZero ? '≥ 0' : '> 0'}`
      throw new ConfigError(`RELAY_${relayLimitVariable(limit)} must be ${expected}, got ${value}`)
    }
  }
  return read
}

/** WalletConnect's network from `WALLETCONNECT_*`; its relay and explorer URLs mean nothing without a project id. */
function walletConnectConfig(value: (name: string) => string | undefined): WalletConnectConfig | undefined {
  const projectId = value('WALLETCONNECT_PROJECT_ID')
  const relayText = value('WALLETCONNECT_RELAY_URL')
  const explorerText = value('WALLETCONNECT_EXPLORER_URL')
  if (projectId === undefined) {
    // Refused rather than ignored: an operator who points the apps at a relay expects them to use it.
    const set = relayText !== undefined ? 'WALLETCONNECT_RELAY_URL' : 'WALLETCONNECT_EXPLORER_URL'
    if (relayText !== undefined || explorerText !== undefined)
      throw new ConfigError(
        `${set} needs WALLETCONNECT_PROJECT_ID too (a project id from ${WALLETCONNECT_DASHBOARD_URL}), or unset it`,
      )
    return undefined
  }
  if (!/^[0-9a-f]{32}$/i.test(projectId))
    throw new ConfigError(
      `WALLETCONNECT_PROJECT_ID must be 32 hex characters (a project id from ${WALLETCONNECT_DASHBOARD_URL}), got ${JSON.stringify(projectId.slice(0, 40))}`,
    )
  const relayUrl = relayText ?? WALLETCONNECT_RELAY_URL
  const relay = url('WALLETCONNECT_RELAY_URL', relayUrl, ['ws:', 'wss:'])
  // The URL is the `aud` of every relay token and must match the relay's own spelling: no credentials to hide in it.
  if (relay.username || relay.password)
    throw new ConfigError('WALLETCONNECT_RELAY_URL must not carry credentials')
  const explorerUrl = explorerText ?? WALLETCONNECT_EXPLORER_URL
  url('WALLETCONNECT_EXPLORER_URL', explorerUrl, ['http:', 'https:'])
  return { projectId, relayUrl, explorerUrl }
}

/** `RELAY_ALLOWED_ORIGINS`: comma-separated `http(s)://host[:port]` origins, kept in their canonical spelling. */
function origins(text: string | undefined): string[] | undefined {
  return text?.split(',').map((entry) => {
    const trimmed = entry.trim()
    let origin: string | undefined
    try {
      const parsed = new URL(trimmed)
      const bare = parsed.pathname === '/' && !parsed.search && !parsed.hash && !parsed.username
      if (bare && ['http:', 'https:'].includes(parsed.protocol)) origin = parsed.origin
    } catch {}
    if (origin === undefined)
      throw new ConfigError(
        `RELAY_ALLOWED_ORIGINS must be comma-separated origins (scheme://host[:port], e.g. https://app.example), got ${JSON.stringify(trimmed.slice(0, 60))}`,
      )
    return origin
  })
}

/** Throws a {@link ConfigError} naming `WALLETS_FILE` unless `path` is a file this process can read. */
function readableFile(path: string): void {
  try {
    if (!statSync(path).isFile()) throw new Error('not a file')
    accessSync(path, constants.R_OK)
  } catch (error) {
    const reason = (error as NodeJS.ErrnoException).code ?? (error as Error).message
    throw new ConfigError(`WALLETS_FILE must be a readable JSON file, got ${path} (${reason})`)
  }
}

/** Where Redis is, read as `pairlink-bridge` reads it (`parseRedisOptions`). */
function redisConfig(
  env: Record<string, string | undefined>,
  value: (name: string) => string | undefined,
): RedisConfig | undefined {
  try {
    return parseRedisOptions({
      url: value('REDIS_URL'),
      sentinels: value('REDIS_SENTINELS'),
      master: value('REDIS_SENTINEL_MASTER'),
      // Untrimmed, as pairlink-bridge reads them.
      password: env.REDIS_PASSWORD || undefined,
      username: value('REDIS_USERNAME'),
      sentinelPassword: env.REDIS_SENTINEL_PASSWORD || undefined,
      waitReplicas: value('REDIS_WAIT_REPLICAS'),
      waitTimeoutMs: value('REDIS_WAIT_TIMEOUT_MS'),
      writeDelayMs: value('REDIS_WRITE_DELAY_MS'),
    })
  } catch (error) {
    // Its message names the variable and never holds a password.
    if (error instanceof InvalidBridgeOptionsError) throw new ConfigError(error.message)
    throw error
  }
}

/** The bridge's node links from `BRIDGE_LINK_*`, which mean nothing without `REDIS_URL`. */
function linkOptions(
  env: Record<string, string | undefined>,
  value: (name: string) => string | undefined,
  redisUrl: string | undefined,
): NodeLinkOptions | false {
  const settings = {
    listen: value('BRIDGE_LINK_LISTEN'),
    advertise: value('BRIDGE_LINK_ADVERTISE'),
    // Untrimmed, as pairlink-bridge reads it: nodes of both kinds sharing one Redis must prove the same secret.
    secret: env.BRIDGE_LINK_SECRET || undefined,
  }
  // Refused rather than ignored: a node meant to join others that runs alone in memory would split the bridge.
  const set = (['listen', 'advertise', 'secret'] as const).find((name) => settings[name] !== undefined)
  if (set !== undefined && redisUrl === undefined)
    throw new ConfigError(
      `BRIDGE_LINK_${set.toUpperCase()} links the nodes of a Redis bridge: set REDIS_URL (or REDIS_SENTINELS) too, or unset it`,
    )
  try {
    return parseLinkOptions(settings)
  } catch (error) {
    // Its message names the variable and never holds the secret.
    if (error instanceof InvalidBridgeOptionsError) throw new ConfigError(error.message)
    throw error
  }
}

/** Parses `text` as a URL with one of `schemes`; the error names `name` and shows the value without credentials. */
function url(name: string, text: string, schemes: string[]): URL {
  let parsed: URL
  try {
    parsed = new URL(text)
  } catch {
    throw new ConfigError(`${name} must be a URL (${schemes.join(' or ')}//…), got an invalid one`)
  }
  if (!schemes.includes(parsed.protocol))
    throw new ConfigError(
      `${name} must be a ${schemes.map((s) => s.slice(0, -1)).join(' or ')} URL, got ${redactUrl(text)}`,
    )
  return parsed
}

/**
 * A URL fit for a message or a log: without credentials, query or path (a key is often in the path, as in
 * `https://node.example/v3/KEY`).
 */
export function redactUrl(text: string): string {
  // Several hosts, which WHATWG URLs cannot hold.
  if (isSentinelUrl(text)) return redactRedisUrl(text)
  try {
    const u = new URL(text)
    const hidden = u.username || u.password || (u.pathname !== '/' && u.pathname !== '') || u.search
    return `${u.protocol}//${u.host}${hidden ? '/…' : u.pathname}`
  } catch {
    return '(invalid URL)'
  }
}
