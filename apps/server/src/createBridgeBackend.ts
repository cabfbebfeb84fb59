import { type Backend, createMemoryBackend } from '@pairlink/bridge'
import type { Config } from './config.js'

/** Parameters of {@link createBridgeBackend}. */
export type CreateBridgeBackendParameters = Pick<Config, 'redisUrl' | 'links'> & {
  /** Prefix of the bridge's Redis keys and channels. @default the bridge's own, 'pairlink:bridge:' */
  keyPrefix?: string | undefined
}

/**
 * The v1 bridge's backend as the server runs it: on Redis when `REDIS_URL` is set, linked to the other nodes as
 * `BRIDGE_LINK_*` say (docs/node-links.md); in memory otherwise.
 * @example
 * const bridge = createBridge({ backend: await createBridgeBackend(loadConfig(process.env)) })
 */
export async function createBridgeBackend(parameters: CreateBridgeBackendParameters): Promise<Backend> {
  const { redisUrl, links, keyPrefix } = parameters
  if (!redisUrl) return createMemoryBackend()
  // The Redis client is loaded only when it is used: a small server starts without it.
  const { createRedisBackend } = await import('@pairlink/bridge/redis')
  return createRedisBackend({ url: redisUrl, keyPrefix, links })
}
