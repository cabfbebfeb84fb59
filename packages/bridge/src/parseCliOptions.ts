import { parseArgs } from 'node:util'
import type { CreateBridgeParameters } from './createBridge.js'
import { InvalidBridgeOptionsError } from './errors.js'
import { parseLinkOptions } from './mesh/linkOptions.js'
import type { NodeLinkOptions } from './mesh/nodeMesh.js'
import { parseRedisOptions, type ReplicaWait } from './redisOptions.js'
import type { CreateBridgeServerParameters } from './server.js'
import { RELAY_LIMITS, type RelayLimitKey, relayLimitVariable } from './v2/relayOptions.js'

type Kind = 'number' | 'string' | 'boolean' | 'list'
type Target =
  | 'port'
  | 'host'
  | 'redis'
  | 'redisPrefix'
  | 'redisSentinels'
  | 'redisSentinelMaster'
  | 'redisWaitReplicas'
  | 'redisWaitTimeout'
  | 'redisWriteDelay'
  | 'linkListen'
  | 'linkAdvertise'
  | 'linkSecret'
  | 'logLevel'
  | 'webhookTimeoutMs'
  | 'webhookAllow'
  | 'maxTotalQueuedBytes'
  | 'relayUrls'
  | 'relayStrictAudience'
  | 'relayMaxMessageLengthByTag'
  | 'relayMinRequestId'
  | 'relayProjectIds'
  | 'relayAllowedOrigins'
  | 'relayRefusal'
type Option = {
  flag: string
  env: string
  kind: Kind
  /** A bridge option, a v2 relay limit (`relay:` + its key), or a CLI-level setting. */
  key: keyof CreateBridgeParameters | Target | `relay:${RelayLimitKey}`
  description: string
}

/** Every CLI flag with its environment variable; `--help` and the README table are made from this list. */
export const CLI_OPTIONS: readonly Option[] = [
  { flag: 'port', env: 'PORT', kind: 'number', key: 'port', description: 'TCP port (default 5001)' },
  {
    flag: 'host',
    env: 'HOST',
    kind: 'string',
    key: 'host',
    description: 'address to listen on (default 127.0.0.1; 0.0.0.0 for all)',
  },
  {
    flag: 'redis',
    env: 'REDIS_URL',
    kind: 'string',
    key: 'redis',
    description: 'Redis URL: share state between nodes (redis+sentinel://h:p,h:p/master: through Sentinel)',
  },
  {
    flag: 'redis-sentinels',
    env: 'REDIS_SENTINELS',
    kind: 'string',
    key: 'redisSentinels',
    description:
      'host:port,host:port of the Redis sentinels, instead of --redis (with --redis-sentinel-master)',
  },
  {
    flag: 'redis-sentinel-master',
    env: 'REDIS_SENTINEL_MASTER',
    kind: 'string',
    key: 'redisSentinelMaster',
    description: 'the name the sentinels monitor the primary under',
  },
  {
    flag: 'redis-wait-replicas',
    env: 'REDIS_WAIT_REPLICAS',
    kind: 'string',
    key: 'redisWaitReplicas',
    description:
      'replicas a kept v2 message must reach before its publish is answered (1 with Sentinel, else 0)',
  },
  {
    flag: 'redis-wait-timeout',
    env: 'REDIS_WAIT_TIMEOUT_MS',
    kind: 'string',
    key: 'redisWaitTimeout',
    description: 'how long a publish waits for them, ms; then it is answered with an error (500)',
  },
  {
    flag: 'redis-write-delay',
    env: 'REDIS_WRITE_DELAY_MS',
    kind: 'string',
    key: 'redisWriteDelay',
    description:
      'longest a v2 message a reader got waits before it is written to Redis, ms: acked meanwhile, it never is (1000; 0: write every message)',
  },
  {
    flag: 'redis-prefix',
    env: 'BRIDGE_REDIS_PREFIX',
    kind: 'string',
    key: 'redisPrefix',
    description: 'Redis key and channel prefix (default pairlink:bridge:)',
  },
  {
    flag: 'link-listen',
    env: 'BRIDGE_LINK_LISTEN',
    kind: 'string',
    key: 'linkListen',
    description:
      'host:port the other Redis nodes link to (127.0.0.1:0, a free port); off: through Redis only',
  },
  {
    flag: 'link-advertise',
    env: 'BRIDGE_LINK_ADVERTISE',
    kind: 'string',
    key: 'linkAdvertise',
    description: 'host:port the other nodes dial, when not the one listened on (NAT, containers, 0.0.0.0)',
  },
  {
    flag: 'link-secret',
    env: 'BRIDGE_LINK_SECRET',
    kind: 'string',
    key: 'linkSecret',
    description:
      'secret every node proves when a link opens, 16 characters or more (default: one kept in Redis)',
  },
  {
    flag: 'ttl',
    env: 'BRIDGE_TTL',
    kind: 'number',
    key: 'ttlSeconds',
    description: 'queued message TTL, s (86400)',
  },
  {
    flag: 'max-queue-length',
    env: 'BRIDGE_MAX_QUEUE_LENGTH',
    kind: 'number',
    key: 'maxQueueLength',
    description: 'messages queued per topic (100)',
  },
  {
    flag: 'max-queued-bytes',
    env: 'BRIDGE_MAX_QUEUED_BYTES',
    kind: 'number',
    key: 'maxQueuedBytes',
    description: 'bytes queued per topic (8388608)',
  },
  {
    flag: 'max-frame-bytes',
    env: 'BRIDGE_MAX_FRAME_BYTES',
    kind: 'number',
    key: 'maxFrameBytes',
    description: 'largest frame; larger closes with 1009 (1048576)',
  },
  {
    flag: 'max-topics-per-socket',
    env: 'BRIDGE_MAX_TOPICS_PER_SOCKET',
    kind: 'number',
    key: 'maxTopicsPerSocket',
    description: 'subscriptions per socket (32)',
  },
  {
    flag: 'max-topic-length',
    env: 'BRIDGE_MAX_TOPIC_LENGTH',
    kind: 'number',
    key: 'maxTopicLength',
    description: 'longest topic (128)',
  },
  {
    flag: 'max-connections-per-ip',
    env: 'BRIDGE_MAX_CONNECTIONS_PER_IP',
    kind: 'number',
    key: 'maxConnectionsPerIp',
    description: 'TCP connections per address, half-open included, 0 = no limit (256)',
  },
  {
    flag: 'max-messages-per-second',
    env: 'BRIDGE_MAX_MESSAGES_PER_SECOND',
    kind: 'number',
    key: 'maxMessagesPerSecond',
    description: 'frames per second per socket, 0 = no limit (100)',
  },
  {
    flag: 'message-burst',
    env: 'BRIDGE_MESSAGE_BURST',
    kind: 'number',
    key: 'messageBurst',
    description: 'frames per socket in a burst (200)',
  },
  {
    flag: 'max-messages-per-second-per-ip',
    env: 'BRIDGE_MAX_MESSAGES_PER_SECOND_PER_IP',
    kind: 'number',
    key: 'maxMessagesPerSecondPerIp',
    description: 'frames per second of all the sockets of one address, 0 = no limit (1000)',
  },
  {
    flag: 'message-burst-per-ip',
    env: 'BRIDGE_MESSAGE_BURST_PER_IP',
    kind: 'number',
    key: 'messageBurstPerIp',
    description: 'frames per address in a burst (2000)',
  },
  {
    flag: 'max-queued-bytes-per-ip',
    env: 'BRIDGE_MAX_QUEUED_BYTES_PER_IP',
    kind: 'number',
    key: 'maxQueuedBytesPerIp',
    description: 'bytes one address may have queued over all topics (16777216)',
  },
  {
    flag: 'max-total-queued-bytes',
    env: 'BRIDGE_MAX_TOTAL_QUEUED_BYTES',
    kind: 'number',
    key: 'maxTotalQueuedBytes',
    description: 'bytes queued over all topics, memory or Redis (268435456)',
  },
  {
    flag: 'max-webhook-registrations-per-minute',
    env: 'BRIDGE_MAX_WEBHOOK_REGISTRATIONS_PER_MINUTE',
    kind: 'number',
    key: 'maxWebhookRegistrationsPerMinutePerIp',
    description: 'POST /subscribe per minute per address, 0 = no limit (60)',
  },
  {
    flag: 'max-buffered-bytes',
    env: 'BRIDGE_MAX_BUFFERED_BYTES',
    kind: 'number',
    key: 'maxBufferedBytes',
    description: 'unsent bytes before a socket is dropped (16777216)',
  },
  {
    flag: 'max-buffered-bytes-per-ip',
    env: 'BRIDGE_MAX_BUFFERED_BYTES_PER_IP',
    kind: 'number',
    key: 'maxBufferedBytesPerIp',
    description: 'unsent bytes of all the sockets of one address, v1 and v2 (33554432)',
  },
  {
    flag: 'max-read-bytes-per-second-per-ip',
    env: 'BRIDGE_MAX_READ_BYTES_PER_SECOND_PER_IP',
    kind: 'number',
    key: 'maxReadBytesPerSecondPerIp',
    description:
      'bytes per second read from all the sockets of one address, v1 and v2; beyond, reading pauses, 0 = no limit (4194304)',
  },
  {
    flag: 'read-burst-bytes-per-ip',
    env: 'BRIDGE_READ_BURST_BYTES_PER_IP',
    kind: 'number',
    key: 'readBurstBytesPerIp',
    description: 'bytes one address may send at once before the read rate applies (1048576)',
  },
  {
    flag: 'ping-interval',
    env: 'BRIDGE_PING_INTERVAL_MS',
    kind: 'number',
    key: 'pingIntervalMs',
    description: 'server ping interval, ms (10000)',
  },
  {
    flag: 'webhook-timeout',
    env: 'BRIDGE_WEBHOOK_TIMEOUT_MS',
    kind: 'number',
    key: 'webhookTimeoutMs',
    description: 'push webhook time-out, ms (5000)',
  },
  {
    flag: 'webhook-allow',
    env: 'BRIDGE_WEBHOOK_ALLOW',
    kind: 'list',
    key: 'webhookAllow',
    description: 'comma-separated private hosts/IPs/CIDRs webhooks may reach',
  },
  {
    flag: 'trust-proxy',
    env: 'BRIDGE_TRUST_PROXY',
    kind: 'boolean',
    key: 'trustProxy',
    description: 'take the client address from X-Forwarded-For',
  },
  {
    flag: 'relay-url',
    env: 'BRIDGE_RELAY_URLS',
    kind: 'list',
    key: 'relayUrls',
    description:
      'public URLs of the v2 relay a token aud must name, comma-separated (default: where it listens)',
  },
  {
    flag: 'relay-strict-audience',
    env: 'BRIDGE_RELAY_STRICT_AUDIENCE',
    kind: 'boolean',
    key: 'relayStrictAudience',
    description: "a token's aud must equal one --relay-url exactly, with a JWT/EdDSA header",
  },
  ...RELAY_LIMITS.map(
    (limit): Option => ({
      flag: `relay-${limit.flag}`,
      env: `BRIDGE_RELAY_${relayLimitVariable(limit)}`,
      kind: 'number',
      key: `relay:${limit.key}`,
      description: `v2: ${limit.description} (${limit.default})`,
    }),
  ),
  {
    flag: 'relay-max-message-length-by-tag',
    env: 'BRIDGE_RELAY_MAX_MESSAGE_LENGTH_BY_TAG',
    kind: 'list',
    key: 'relayMaxMessageLengthByTag',
    description: 'v2: longest message per tag, tag:length,… (none)',
  },
  {
    flag: 'relay-min-request-id',
    env: 'BRIDGE_RELAY_MIN_REQUEST_ID',
    kind: 'number',
    key: 'relayMinRequestId',
    description: 'v2: smallest request id accepted (any)',
  },
  {
    flag: 'relay-project-ids',
    env: 'BRIDGE_RELAY_PROJECT_IDS',
    kind: 'list',
    key: 'relayProjectIds',
    description: 'comma-separated v2 project ids served (any when unset)',
  },
  {
    flag: 'relay-allowed-origins',
    env: 'BRIDGE_RELAY_ALLOWED_ORIGINS',
    kind: 'list',
    key: 'relayAllowedOrigins',
    description: 'comma-separated page origins allowed on v2 (any when unset; localhost always)',
  },
  {
    flag: 'relay-refusal',
    env: 'BRIDGE_RELAY_REFUSAL',
    kind: 'string',
    key: 'relayRefusal',
    description: "how v2 upgrades are refused: http (401/403) or close (3000, WalletConnect's)",
  },
  {
    flag: 'log-level',
    env: 'LOG_LEVEL',
    kind: 'string',
    key: 'logLevel',
    description: 'pino log level (info)',
  },
]

/** Return type of {@link parseCliOptions}. */
export type CliOptions = {
  help: boolean
  port: number
  host: string
  /**
   * Where Redis is: `--redis`, or the sentinels (`--redis-sentinels`, `--redis-sentinel-master`, `REDIS_PASSWORD`,
   * `REDIS_SENTINEL_PASSWORD`) as one `redis+sentinel://` URL. Holds passwords: never log it.
   */
  redis: string | undefined
  redisPrefix: string | undefined
  /** `createRedisRelayStore`'s `waitForReplicas` (`--redis-wait-replicas`, `--redis-wait-timeout`). */
  redisWaitForReplicas: ReplicaWait | false
  /** `createRedisRelayStore`'s `writeDelayMs` (`--redis-write-delay`), when given. */
  redisWriteDelayMs: number | undefined
  /** Links between Redis nodes (`createRedisBackend`'s `links`). */
  links: NodeLinkOptions | false
  logLevel: string
  /** `maxTotalQueuedBytes` of the backend (memory or Redis); its default when undefined. */
  maxTotalQueuedBytes: number | undefined
  /** Options for `createBridgeServer` (without backend and logger). */
  bridge: CreateBridgeServerParameters
}

/**
 * Reads the CLI's flags, falling back to environment variables (a flag wins over its variable).
 * Throws `InvalidBridgeOptionsError` on an unknown flag or a value of the wrong type.
 *
 * @example
 * parseCliOptions(['--port', '5001', '--redis', 'redis://127.0.0.1:6379'], process.env)
 */
export function parseCliOptions(
  argv: readonly string[],
  env: Record<string, string | undefined>,
): CliOptions {
  let values: Record<string, string | boolean | undefined>
  try {
    values = parseArgs({
      args: [...argv],
      strict: true,
      options: {
        help: { type: 'boolean', short: 'h' },
        ...Object.fromEntries(
          CLI_OPTIONS.map((option) => [
            option.flag,
            { type: option.kind === 'boolean' ? 'boolean' : 'string' },
          ]),
        ),
      },
    }).values as Record<string, string | boolean | undefined>
  } catch (error) {
    throw new InvalidBridgeOptionsError(error instanceof Error ? error.message : String(error))
  }

  const read: Record<string, unknown> = {}
  for (const option of CLI_OPTIONS) {
    // An empty variable counts as unset (the shell convention); an empty flag is a mistake worth reporting.
    const raw = values[option.flag] ?? (env[option.env] || undefined)
    if (raw === undefined) continue
    read[option.key] = convert(option, raw)
  }
  const {
    port,
    host,
    redis,
    redisPrefix,
    redisSentinels,
    redisSentinelMaster,
    redisWaitReplicas,
    redisWaitTimeout,
    redisWriteDelay,
    linkListen,
    linkAdvertise,
    linkSecret,
    logLevel,
    webhookTimeoutMs,
    webhookAllow,
    maxTotalQueuedBytes,
    relayUrls,
    relayStrictAudience,
    relayMaxMessageLengthByTag,
    relayMinRequestId,
    relayProjectIds,
    relayAllowedOrigins,
    relayRefusal,
    ...bridge
  } = read
  const relay: NonNullable<Exclude<CreateBridgeServerParameters['relay'], false>> = {}
  for (const [key, value] of Object.entries(bridge)) {
    if (!key.startsWith('relay:')) continue
    delete bridge[key]
    relay[key.slice('relay:'.length) as RelayLimitKey] = value as number
  }
  const webhooks: NonNullable<CreateBridgeParameters['webhooks']> = {}
  if (webhookTimeoutMs !== undefined) webhooks.timeoutMs = webhookTimeoutMs as number
  if (webhookAllow !== undefined) webhooks.allowHosts = webhookAllow as string[]
  if (relayMaxMessageLengthByTag !== undefined)
    relay.maxMessageLengthByTag = parseLengthsByTag(relayMaxMessageLengthByTag as string[])
  if (relayMinRequestId !== undefined) relay.minRequestId = relayMinRequestId as number
  if (relayProjectIds !== undefined) relay.projectIds = relayProjectIds as string[]
  if (relayAllowedOrigins !== undefined) relay.allowedOrigins = relayAllowedOrigins as string[]
  if (relayRefusal !== undefined) {
    if (relayRefusal !== 'http' && relayRefusal !== 'close')
      throw new InvalidBridgeOptionsError(
        `Invalid --relay-refusal: expected http or close, got ${String(relayRefusal)}`,
      )
    relay.refusal = relayRefusal
  }
  if (port !== undefined && (!Number.isInteger(port) || (port as number) > 65_535))
    throw new InvalidBridgeOptionsError(`Invalid --port: ${String(port)}`)
  const links = parseLinkOptions(
    {
      listen: linkListen as string | undefined,
      advertise: linkAdvertise as string | undefined,
      secret: linkSecret as string | undefined,
    },
    { listen: '--link-listen', advertise: '--link-advertise', secret: '--link-secret' },
  )
  // Passwords from the environment only: a flag would show them in the process list.
  const redisConfig = parseRedisOptions(
    {
      url: redis as string | undefined,
      sentinels: redisSentinels as string | undefined,
      master: redisSentinelMaster as string | undefined,
      password: env.REDIS_PASSWORD || undefined,
      username: env.REDIS_USERNAME || undefined,
      sentinelPassword: env.REDIS_SENTINEL_PASSWORD || undefined,
      waitReplicas: redisWaitReplicas as string | undefined,
      waitTimeoutMs: redisWaitTimeout as string | undefined,
      writeDelayMs: redisWriteDelay as string | undefined,
    },
    {
      url: '--redis',
      sentinels: '--redis-sentinels',
      master: '--redis-sentinel-master',
      sentinelPassword: 'REDIS_SENTINEL_PASSWORD',
      waitReplicas: '--redis-wait-replicas',
      waitTimeoutMs: '--redis-wait-timeout',
      writeDelayMs: '--redis-write-delay',
    },
  )
  return {
    help: values.help === true,
    port: (port as number | undefined) ?? 5001,
    host: (host as string | undefined) ?? '127.0.0.1',
    redis: redisConfig?.url,
    redisPrefix: redisPrefix as string | undefined,
    redisWaitForReplicas: redisConfig?.waitForReplicas ?? false,
    redisWriteDelayMs: redisConfig?.writeDelayMs,
    links,
    logLevel: (logLevel as string | undefined) ?? 'info',
    maxTotalQueuedBytes: maxTotalQueuedBytes as number | undefined,
    bridge: {
      ...(bridge as CreateBridgeParameters),
      webhooks,
      ...(relayUrls === undefined ? {} : { relayUrls: relayUrls as string[] }),
      ...(relayStrictAudience === undefined ? {} : { strictAudience: relayStrictAudience as boolean }),
      ...(Object.keys(relay).length === 0 ? {} : { relay }),
    },
  }
}

/** The `--help` text: one row per flag, its variable and what it sets, in columns as wide as their longest entry. */
export function formatCliUsage(): string {
  const names = CLI_OPTIONS.map((option) => `--${option.flag}${option.kind === 'boolean' ? '' : ' <value>'}`)
  const nameWidth = Math.max(...names.map((name) => name.length)) + 2
  const envWidth = Math.max(...CLI_OPTIONS.map((option) => option.env.length)) + 2
  const rows = CLI_OPTIONS.map(
    (option, i) =>
      `  ${(names[i] as string).padEnd(nameWidth)}${option.env.padEnd(envWidth)}${option.description}`,
  )
  return [
    'Usage: pairlink-bridge [options]',
    '',
    `  ${'flag'.padEnd(nameWidth)}${'env'.padEnd(envWidth)}what`,
    ...rows,
  ].join('\n')
}

/** `tag:length` entries (`1109:98304`) as `maxMessageLengthByTag`. */
function parseLengthsByTag(entries: readonly string[]): Record<number, number> {
  const lengths: Record<number, number> = {}
  for (const entry of entries) {
    const match = /^(\d+):(\d+)$/.exec(entry)
    if (!match)
      throw new InvalidBridgeOptionsError(
        `Invalid --relay-max-message-length-by-tag: expected tag:length, got ${entry}`,
      )
    lengths[Number(match[1])] = Number(match[2])
  }
  return lengths
}

function convert(option: Option, raw: string | boolean): unknown {
  switch (option.kind) {
    case 'boolean':
      if (typeof raw === 'boolean') return raw
      if (/^(1|true|yes)$/i.test(raw)) return true
      if (/^(0|false|no)$/i.test(raw)) return false
      throw new InvalidBridgeOptionsError(`Invalid ${option.env}: expected true or false`)
    case 'number': {
      const value = Number(raw)
      if (typeof raw !== 'string' || raw.trim() === '' || !Number.isFinite(value))
        throw new InvalidBridgeOptionsError(`Invalid --${option.flag}: expected a number, got ${String(raw)}`)
      return value
    }
    case 'list':
      return String(raw)
        .split(',')
        .map((entry) => entry.trim())
        .filter(Boolean)
    default:
      return String(raw)
  }
}
