import { parseArgs } from 'node:util'
import { CLI_OPTIONS } from './cliOptions.js'
import { convertCliValue } from './convertCliValue.js'
import type { CreateBridgeParameters } from './createBridge.js'
import { InvalidBridgeOptionsError } from './errors.js'
import { parseLinkOptions } from './mesh/linkOptions.js'
import type { NodeLinkOptions } from './mesh/nodeMesh.js'
import { parseLengthsByTag } from './parseLengthsByTag.js'
import { parseRedisOptions, type ReplicaWait } from './redisOptions.js'
import type { CreateBridgeServerParameters } from './server.js'
import type { RelayLimitKey } from './v2/relayOptions.js'

// The option table and the `--help` text live beside this file; they are exported from here, as they always were.
export { CLI_OPTIONS } from './cliOptions.js'
export { formatCliUsage } from './formatCliUsage.js'

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
    read[option.key] = convertCliValue(option, raw)
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
