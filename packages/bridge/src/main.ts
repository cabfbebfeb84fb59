#!/usr/bin/env node
import pino from 'pino'
import { createMemoryBackend } from './backends/memory.js'
import { createRedisBackend } from './backends/redis.js'
import { DEFAULT_REDIS_KEY_PREFIX } from './constants.js'
import { formatCliUsage, parseCliOptions } from './parseCliOptions.js'
import { processLogDestination } from './processLog.js'
import { createBridgeServer } from './server.js'
import { createRedisRelayStore } from './v2/redisStore.js'

// Shutdown must finish even if a peer or Redis hangs: after this, exit anyway.
const SHUTDOWN_TIMEOUT_MS = 10_000

let cli: ReturnType<typeof parseCliOptions>
try {
  cli = parseCliOptions(process.argv.slice(2), process.env)
} catch (error) {
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n\n${formatCliUsage()}\n`)
  process.exit(2)
}
if (cli.help) {
  process.stdout.write(`${formatCliUsage()}\n`)
  process.exit(0)
}

// Synchronous, and silent once the log reader is gone: SIGTERM must end the CLI whatever became of its stdout.
const logger = pino({ level: cli.logLevel, base: { service: 'pairlink-bridge' } }, processLogDestination())
const { maxTotalQueuedBytes, links, redisWaitForReplicas, redisWriteDelayMs } = cli
const backend = cli.redis
  ? createRedisBackend({ url: cli.redis, keyPrefix: cli.redisPrefix, maxTotalQueuedBytes, links })
  : createMemoryBackend({ maxTotalQueuedBytes })
// With Redis, v2 shares it too, under keys of its own beside v1's.
const relay =
  cli.redis && cli.bridge.relay !== false
    ? {
        ...cli.bridge.relay,
        store: createRedisRelayStore({
          url: cli.redis,
          keyPrefix: `${cli.redisPrefix ?? DEFAULT_REDIS_KEY_PREFIX}v2:`,
          waitForReplicas: redisWaitForReplicas,
          writeDelayMs: redisWriteDelayMs,
          // Over the v1 backend's node links, as v1 frames go (docs/node-links.md).
          links: backend.relayLinks,
        }),
      }
    : cli.bridge.relay
const bridge = createBridgeServer({ ...cli.bridge, relay, backend, logger, processMetrics: true })

try {
  const { url } = await bridge.listen(cli.port, cli.host)
  // Never log the Redis URL: it may carry a password.
  logger.info({ url, backend: backend.name }, 'bridge listening')
} catch (error) {
  logger.fatal({ error: error instanceof Error ? error.message : String(error) }, 'bridge failed to start')
  process.exit(1)
}

let stopping = false
const stop = (signal: string) => {
  if (stopping) process.exit(1)
  stopping = true
  // Armed before anything else: nothing below, a log line included, may hold the exit up.
  setTimeout(() => process.exit(1), SHUTDOWN_TIMEOUT_MS).unref()
  logger.info({ signal }, 'shutting down')
  bridge.close().then(
    () => {
      logger.info('bridge stopped')
      process.exit(0)
    },
    (error: unknown) => {
      logger.error({ error: error instanceof Error ? error.message : String(error) }, 'shutdown failed')
      process.exit(1)
    },
  )
}
process.on('SIGTERM', () => stop('SIGTERM'))
process.on('SIGINT', () => stop('SIGINT'))
