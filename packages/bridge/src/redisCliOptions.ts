import type { CliOption } from './cliOption.js'

/** The flags of Redis (a URL, or Sentinel), its waits and the links between Redis nodes, in `--help` order. */
export const REDIS_CLI_OPTIONS: readonly CliOption[] = [
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
]
