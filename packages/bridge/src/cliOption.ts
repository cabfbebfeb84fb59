import type { CreateBridgeParameters } from './createBridge.js'
import type { RelayLimitKey } from './v2/relayOptions.js'

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

/** One flag of the bridge CLI: its environment variable, the type of its value and what it sets. */
export type CliOption = {
  flag: string
  env: string
  kind: Kind
  /** A bridge option, a v2 relay limit (`relay:` + its key), or a CLI-level setting. */
  key: keyof CreateBridgeParameters | Target | `relay:${RelayLimitKey}`
  description: string
}
