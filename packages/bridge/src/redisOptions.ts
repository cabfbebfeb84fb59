import type { RedisOptions } from 'ioredis'
import { InvalidBridgeOptionsError } from './errors.js'
import { parseLinkAddress } from './mesh/linkOptions.js'

const SENTINEL_SCHEME = 'redis+sentinel:'
// Sentinel's own port, when a sentinel's address names none.
const DEFAULT_SENTINEL_PORT = 26_379
// A master name as `sentinel monitor` takes it: no spaces, nothing a URL would need to escape.
const MASTER_NAME = /^[\w.-]{1,128}$/
/** How long a kept v2 message waits for its replicas, by default. @default 500 */
export const DEFAULT_REDIS_WAIT_TIMEOUT_MS = 500

/** What a kept message waits for before the relay answers its publish: `WAIT replicas timeoutMs` (docs/redis-ha.md). */
export type ReplicaWait = {
  /** Replicas that must hold the message. */
  replicas: number
  /** How long to wait for them before the publish is answered with an error, ms. @default 500 */
  timeoutMs?: number | undefined
}

/** Parameters of {@link parseRedisOptions}: the settings as text, each unset when undefined. */
export type ParseRedisOptionsParameters = {
  /** `redis://…`, `rediss://…`, or `redis+sentinel://[user:pass@]host:port,host:port/master[/db]`. */
  url?: string | undefined
  /** `host:port,host:port`: the sentinels (instead of `url`). */
  sentinels?: string | undefined
  /** The name the sentinels monitor the primary under (with `sentinels`). */
  master?: string | undefined
  /** Password of the primary and replicas (with `sentinels`; in `url` otherwise). */
  password?: string | undefined
  /** Username of the primary and replicas (with `sentinels`). */
  username?: string | undefined
  /** Password of the sentinels themselves (`sentinel requirepass`), when they have one. */
  sentinelPassword?: string | undefined
  /** Replicas a kept v2 message must reach before its publish is answered; `0`: none. @default 1 with Sentinel, else 0 */
  waitReplicas?: string | undefined
  /** How long it waits for them, ms. @default 500 */
  waitTimeoutMs?: string | undefined
  /**
   * Longest a v2 message a reader got waits before it is written, ms (`createRedisRelayStore`'s `writeDelayMs`);
   * `0`: every message written at once. @default 1000
   */
  writeDelayMs?: string | undefined
}

/** What the messages of {@link parseRedisOptions} call each setting. */
export type RedisSettingNames = Record<
  Exclude<keyof ParseRedisOptionsParameters, 'password' | 'username'>,
  string
>

/** Return type of {@link parseRedisOptions}. */
export type RedisConfig = {
  /** One URL for `createRedisBackend` and `createRedisRelayStore`: the sentinel form when sentinels were given. Holds passwords: never log it (see {@link redactRedisUrl}). */
  url: string
  /** `createRedisRelayStore`'s `waitForReplicas`; `false`: a kept message is answered once the primary has it. */
  waitForReplicas: ReplicaWait | false
  /** `createRedisRelayStore`'s `writeDelayMs`, when set. */
  writeDelayMs: number | undefined
}

/**
 * Reads where Redis is from text, as `pairlink-bridge`'s flags and the product server's variables give it, so that
 * both read it alike: one URL (`REDIS_URL`), or sentinels and the master name they monitor (`REDIS_SENTINELS`,
 * `REDIS_SENTINEL_MASTER`); and whether a kept v2 message waits for replicas. Undefined when Redis is not configured.
 * Throws `InvalidBridgeOptionsError` naming the first bad setting as `names` says; a password never appears in a
 * message.
 *
 * @param names What the messages call each setting. @default the variables (`REDIS_URL`, `REDIS_SENTINELS`, …)
 * @example
 * parseRedisOptions({ sentinels: '10.0.0.1:26379,10.0.0.2:26379,10.0.0.3:26379', master: 'pairlink' })
 * // { url: 'redis+sentinel://10.0.0.1:26379,10.0.0.2:26379,10.0.0.3:26379/pairlink', waitForReplicas: { replicas: 1, timeoutMs: 500 } }
 */
export function parseRedisOptions(
  settings: ParseRedisOptionsParameters,
  names: RedisSettingNames = {
    url: 'REDIS_URL',
    sentinels: 'REDIS_SENTINELS',
    master: 'REDIS_SENTINEL_MASTER',
    sentinelPassword: 'REDIS_SENTINEL_PASSWORD',
    waitReplicas: 'REDIS_WAIT_REPLICAS',
    waitTimeoutMs: 'REDIS_WAIT_TIMEOUT_MS',
    writeDelayMs: 'REDIS_WRITE_DELAY_MS',
  },
): RedisConfig | undefined {
  const { url, sentinels, master } = settings
  let target: string
  if (sentinels !== undefined || master !== undefined) {
    if (url !== undefined)
      throw new InvalidBridgeOptionsError(
        `Set ${names.url} or ${names.sentinels} with ${names.master}, not both (a redis+sentinel:// URL in ${names.url} says it all)`,
      )
    if (sentinels === undefined || master === undefined)
      throw new InvalidBridgeOptionsError(
        `${names.sentinels} (host:port,host:port) and ${names.master} (the name the sentinels monitor) go together`,
      )
    const credentials = settings.password
      ? `${encodeURIComponent(settings.username ?? '')}:${encodeURIComponent(settings.password)}@`
      : ''
    target = `redis+sentinel://${credentials}${sentinels.replace(/\s/g, '')}/${master}`
    const bad = sentinelProblem(target)
    if (bad === 'master')
      throw new InvalidBridgeOptionsError(`${names.master} must be a master name, got ${master}`)
    if (bad)
      throw new InvalidBridgeOptionsError(
        `${names.sentinels} must be host:port of each sentinel, comma-separated, got ${sentinels}`,
      )
  } else if (url !== undefined) {
    target = url
    if (url.startsWith(SENTINEL_SCHEME)) {
      if (sentinelProblem(url))
        throw new InvalidBridgeOptionsError(
          `${names.url} must be redis+sentinel://[user:password@]host:port,host:port/master[/db], got ${redactRedisUrl(url)}`,
        )
    } else if (!/^rediss?:$/.test(schemeOf(url)) || !URL.canParse(url))
      throw new InvalidBridgeOptionsError(
        `${names.url} must be a redis://, rediss:// or redis+sentinel:// URL, got ${redactRedisUrl(url)}`,
      )
  } else {
    const needsRedis = (['sentinelPassword', 'waitReplicas', 'writeDelayMs'] as const).find(
      (name) => settings[name] !== undefined,
    )
    if (needsRedis)
      throw new InvalidBridgeOptionsError(
        `${names[needsRedis]} needs Redis: set ${names.url} or ${names.sentinels}`,
      )
    return undefined
  }
  if (settings.sentinelPassword !== undefined) {
    if (!target.startsWith(SENTINEL_SCHEME))
      throw new InvalidBridgeOptionsError(
        `${names.sentinelPassword} is for sentinels: ${names.url} names none`,
      )
    const query = target.includes('?') ? '&' : '?'
    target += `${query}sentinelPassword=${encodeURIComponent(settings.sentinelPassword)}`
  }
  const sentinel = target.startsWith(SENTINEL_SCHEME)
  const replicas = count(settings.waitReplicas, names.waitReplicas) ?? (sentinel ? 1 : 0)
  const timeoutMs = count(settings.waitTimeoutMs, names.waitTimeoutMs) ?? DEFAULT_REDIS_WAIT_TIMEOUT_MS
  if (timeoutMs === 0)
    throw new InvalidBridgeOptionsError(`${names.waitTimeoutMs} must be above 0 (WAIT 0 would wait forever)`)
  return {
    url: target,
    waitForReplicas: replicas > 0 ? { replicas, timeoutMs } : false,
    writeDelayMs: count(settings.writeDelayMs, names.writeDelayMs),
  }
}

/** A Redis URL fit for a message or a log: scheme, hosts and master name, never credentials or query. */
export function redactRedisUrl(url: string): string {
  const match = /^([a-z+]+:)\/\/(?:[^@/]*@)?([^/?#]*)(\/[^/?#]*)?/i.exec(url)
  if (!match) return '(invalid URL)'
  const [, scheme, hosts, path = ''] = match
  return `${scheme}//${hosts}${(scheme as string).toLowerCase() === SENTINEL_SCHEME ? path : ''}`
}

/** Whether `url` is the Sentinel form (`redis+sentinel://…`). */
export function isSentinelUrl(url: string): boolean {
  return schemeOf(url) === SENTINEL_SCHEME
}

/**
 * ioredis's options for a `redis+sentinel://` URL: the sentinels, the master name, the credentials and database.
 * Throws `InvalidBridgeOptionsError` when it is not one.
 */
export function sentinelOptions(url: string): RedisOptions {
  const parsed = parseSentinelUrl(url)
  if (typeof parsed === 'string')
    throw new InvalidBridgeOptionsError(`Invalid redis+sentinel:// URL (${parsed})`)
  return parsed
}

function schemeOf(url: string) {
  return /^[a-z][a-z0-9+.-]*:/i.exec(url)?.[0].toLowerCase() ?? ''
}

function sentinelProblem(url: string) {
  const parsed = parseSentinelUrl(url)
  return typeof parsed === 'string' ? parsed : undefined
}

/** The options, or what is wrong (`'sentinels'`, `'master'`, `'db'`, `'query'`). */
function parseSentinelUrl(url: string): RedisOptions | string {
  const match = /^redis\+sentinel:\/\/(?:([^@/]*)@)?([^/?#]+)\/([^/?#]+)(?:\/(\d+))?\/?(?:\?([^#]*))?$/i.exec(
    url,
  )
  if (!match) return 'sentinels'
  const [, userInfo, hostList = '', master = '', db, query] = match
  const sentinels = hostList.split(',').map((entry) => {
    const address = /:\d+$/.test(entry) ? entry : `${entry}:${DEFAULT_SENTINEL_PORT}`
    return parseLinkAddress(address)
  })
  if (sentinels.some((address) => address === undefined)) return 'sentinels'
  const name = decodeURIComponent(master)
  if (!MASTER_NAME.test(name)) return 'master'
  const options: RedisOptions = {
    sentinels: sentinels as { host: string; port: number }[],
    name,
  }
  if (userInfo) {
    const colon = userInfo.indexOf(':')
    const username = decodeURIComponent(colon === -1 ? userInfo : userInfo.slice(0, colon))
    if (username) options.username = username
    if (colon !== -1) options.password = decodeURIComponent(userInfo.slice(colon + 1))
  }
  if (db !== undefined) options.db = Number(db)
  for (const [key, value] of new URLSearchParams(query ?? '')) {
    if (key === 'sentinelPassword') options.sentinelPassword = value
    else if (key === 'sentinelUsername') options.sentinelUsername = value
    else return 'query'
  }
  return options
}

function count(text: string | undefined, name: string): number | undefined {
  if (text === undefined) return undefined
  if (!/^\d{1,9}$/.test(text.trim()))
    throw new InvalidBridgeOptionsError(`${name} must be a whole number, got ${text}`)
  return Number(text)
}
