// The Redis backend is an entry of its own so that `@pairlink/bridge` never loads ioredis.

export { type CreateRedisBackendParameters, createRedisBackend } from './backends/redis.js'
export { DEFAULT_REDIS_KEY_PREFIX } from './constants.js'
export type { NodeLinkOptions } from './mesh/nodeMesh.js'
export {
  type CreateRedisRelayStoreParameters,
  createRedisRelayStore,
  DEFAULT_RELAY_REDIS_KEY_PREFIX,
} from './v2/redisStore.js'
