import { addressKey } from '../addressKey.js'
import { InvalidBridgeOptionsError } from '../errors.js'
import { silentLogger } from '../logger.js'
import { createRateLimiter } from '../rateLimiter.js'
import { createAdmission } from './admission.js'
import { createHandlers } from './handlers.js'
import { forgetPushes } from './inflight.js'
import { RPC_INVALID_REQUEST } from './jsonRpc.js'
import { createMemoryRelayStore } from './memoryStore.js'
import { createPubSub } from './pubsub.js'
import { createReceiver } from './receiver.js'
import type { Conn, RelayContext } from './relayContext.js'
import { resolveRelayLimits } from './relayOptions.js'
import type { CreateRelayParameters, Relay, RelayCounts } from './relayTypes.js'
import { createStoreSweeper } from './storeSweeper.js'

export { DEFAULT_RELAY_MAX_TTL_SECONDS } from './relayOptions.js'
export type {
  CreateRelayParameters,
  Relay,
  RelayConnection,
  RelayCounts,
  RelaySocket,
} from './relayTypes.js'

/**
 * The WalletConnect v2 relay (`docs/relay-v2.md`): JSON-RPC 2.0 over text frames, `irn_*` pub/sub with a mailbox
 * kept for each message's `ttl`, `wc_proposeSession` / `wc_approveSession` with their implicit subscriptions, pushes
 * as `irn_subscription` and their acks. One node in memory by default; several share a Redis store.
 *
 * @example
 * const relay = createRelay({ maxTtlSeconds: 86_400 })
 * const connection = relay.connect(socket, clientId) // clientId from verifyRelayJwt
 */
export function createRelay(parameters: CreateRelayParameters = {}): Relay {
  const logger = parameters.logger ?? silentLogger
  const counts: RelayCounts = {
    connections: 0,
    subscriptions: 0,
    publishes: 0,
    deliveries: 0,
    acks: 0,
    expired: 0,
    dropped: 0,
    refused: 0,
    invalid: 0,
    authRefusals: 0,
    projectRefusals: 0,
    originRefusals: 0,
    storeErrors: 0,
  }
  const limits = resolveRelayLimits(parameters)
  const store = parameters.store ?? createMemoryRelayStore()
  const ctx: RelayContext = {
    store,
    counts,
    logger,
    limits,
    maxTtl: limits.maxTtlSeconds,
    maxTopicsPerSocket: limits.maxTopicsPerSocket,
    maxMessageLength: limits.maxMessageLength,
    maxMessageLengthByTag: checkLengthsByTag(parameters.maxMessageLengthByTag),
    minRequestId: checkMinRequestId(parameters.minRequestId),
    perSocket: createRateLimiter({ perSecond: limits.maxRequestsPerSecond, burst: limits.requestBurst }),
    perAddress: createRateLimiter({
      perSecond: limits.maxRequestsPerSecondPerIp,
      burst: limits.requestBurstPerIp,
    }),
    conns: new Set<Conn>(),
    subscribers: new Map(),
    failed: (error) => {
      counts.storeErrors++
      logger.warn(
        { store: store.name, error: error instanceof Error ? error.message : String(error) },
        'v2 store error',
      )
    },
  }
  const { conns, failed } = ctx
  const pubsub = createPubSub(ctx)
  const { unsubscribe } = pubsub
  const { receive, reject } = createReceiver(ctx, createHandlers(ctx, pubsub))

  const admit = createAdmission(parameters)
  const refusal = parameters.refusal ?? 'http'
  if (refusal !== 'http' && refusal !== 'close')
    throw new InvalidBridgeOptionsError(`Invalid refusal: ${String(refusal)} (expected 'http' or 'close')`)
  let started: Promise<void> | undefined
  const start = () => {
    started ??= Promise.resolve(
      store.start({
        limits: {
          maxMessagesPerTopic: limits.maxMessagesPerTopic,
          maxBytesPerTopic: limits.maxBytesPerTopic,
          maxBytesPerAddress: limits.maxQueuedBytesPerIp,
          maxBytesPerNetwork: limits.maxQueuedBytesPerNetwork,
          addressShareDivisor: limits.addressShareDivisor,
          networkShareDivisor: limits.networkShareDivisor,
          maxTotalBytes: limits.maxTotalBytes,
        },
        logger,
        dropped: (count) => {
          counts.dropped += count
        },
        expired: (count) => {
          counts.expired += count
        },
        failed,
        deliver: pubsub.fanOut,
        recovering: pubsub.recovering,
        recovered: pubsub.recovered,
      }),
    )
    return started
  }
  // The memory store starts at once: a relay without a shared store needs no start().
  if (store.name === 'memory') start().catch(failed)

  const sweeper = createStoreSweeper(ctx, {
    intervalMs: limits.sweepIntervalMs,
    started: () => started !== undefined,
  })

  return {
    counts,
    admitsProject: (projectId) => {
      const refused = admit(projectId, undefined)
      return refused === undefined || refused.kind === 'origin'
    },
    admit,
    refusal,
    limits,
    mailbox: () => store.size(),
    start,
    isHealthy: () => store.isHealthy(),
    async close() {
      sweeper.stop()
      await store.close()
    },
    connect(socket, clientId) {
      const conn: Conn = {
        socket,
        clientId,
        address: addressKey(socket.remoteAddress),
        topics: new Map(),
        newest: undefined,
        newestId: 0,
        inflight: undefined,
        waiting: undefined,
        waitingBytes: 0,
        answers: undefined,
        blocking: 0,
        publishingBytes: 0,
        loading: undefined,
        closed: false,
        refused: false,
      }
      conns.add(conn)
      counts.connections++
      return {
        receive: (text) => receive(conn, text),
        receiveBinary: () =>
          reject(conn, 'null', RPC_INVALID_REQUEST, 'Invalid request: binary frames are not JSON-RPC'),
        close: () => {
          if (conn.closed) return
          conn.closed = true
          conns.delete(conn)
          counts.connections--
          for (const topic of [...conn.topics.keys()]) unsubscribe(conn, topic)
          forgetPushes(conn)
          conn.waiting = undefined
          conn.loading = undefined
        },
      }
    },
  }
}

function checkMinRequestId(value: number | undefined): bigint | undefined {
  if (value === undefined) return undefined
  if (!Number.isSafeInteger(value) || value < 0)
    throw new InvalidBridgeOptionsError(`Invalid minRequestId: ${value} (expected a non-negative integer)`)
  return BigInt(value)
}

function checkLengthsByTag(
  value: Readonly<Record<number, number>> | undefined,
): Readonly<Record<number, number>> | undefined {
  if (value === undefined) return undefined
  for (const [tag, length] of Object.entries(value)) {
    if (!/^\d+$/.test(tag) || !Number.isSafeInteger(length) || length < 1)
      throw new InvalidBridgeOptionsError(
        `Invalid maxMessageLengthByTag: ${tag}: ${String(length)} (expected tag: a positive integer)`,
      )
  }
  return value
}
