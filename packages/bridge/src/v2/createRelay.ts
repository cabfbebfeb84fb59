import { addressKey } from '../addressKey.js'
import { DEFAULT_MAX_QUEUED_BYTES_PER_IP } from '../constants.js'
import { InvalidBridgeOptionsError } from '../errors.js'
import { silentLogger } from '../logger.js'
import { createRateLimiter } from '../rateLimiter.js'
import { createAdmission } from './admission.js'
import { createHandlers } from './handlers.js'
import { forgetPushes } from './inflight.js'
import { errorFrame, RPC_INVALID_REQUEST } from './jsonRpc.js'
import { createMemoryRelayStore } from './memoryStore.js'
import { createPubSub } from './pubsub.js'
import { createReceiver } from './receiver.js'
import type { Conn, RelayContext } from './relayContext.js'
import {
  type CreateRelayParameters,
  DEFAULT_RELAY_MAX_TTL_SECONDS,
  type Relay,
  type RelayCounts,
} from './relayTypes.js'
import { createStoreSweeper } from './storeSweeper.js'

export {
  type CreateRelayParameters,
  DEFAULT_RELAY_MAX_TTL_SECONDS,
  type Relay,
  type RelayConnection,
  type RelayCounts,
  type RelaySocket,
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
  const store = parameters.store ?? createMemoryRelayStore()
  const ctx: RelayContext = {
    store,
    counts,
    logger,
    maxTtl: parameters.maxTtlSeconds ?? DEFAULT_RELAY_MAX_TTL_SECONDS,
    maxTopicsPerSocket: parameters.maxTopicsPerSocket ?? 1_000,
    maxMessageLength: parameters.maxMessageLength ?? 524_288,
    maxMessageLengthByTag: parameters.maxMessageLengthByTag,
    minRequestId: checkMinRequestId(parameters.minRequestId),
    perSocket: createRateLimiter({
      perSecond: parameters.maxRequestsPerSecond ?? 100,
      burst: parameters.requestBurst ?? 200,
    }),
    perAddress: createRateLimiter({
      perSecond: parameters.maxRequestsPerSecondPerIp ?? 1_000,
      burst: parameters.requestBurstPerIp ?? 2_000,
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
  const receive = createReceiver(ctx, createHandlers(ctx, pubsub))

  const admit = createAdmission(parameters)
  const refusal = parameters.refusal ?? 'http'
  if (refusal !== 'http' && refusal !== 'close')
    throw new InvalidBridgeOptionsError(`Invalid refusal: ${String(refusal)} (expected 'http' or 'close')`)
  let started: Promise<void> | undefined
  const start = () => {
    started ??= Promise.resolve(
      store.start({
        limits: {
          maxMessagesPerTopic: parameters.maxMessagesPerTopic ?? 1_000,
          maxBytesPerTopic: parameters.maxBytesPerTopic ?? 8_388_608,
          maxBytesPerAddress: parameters.maxQueuedBytesPerIp ?? DEFAULT_MAX_QUEUED_BYTES_PER_IP,
          maxTotalBytes: parameters.maxTotalBytes ?? 268_435_456,
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
        recovered: pubsub.recovered,
      }),
    )
    return started
  }
  // The memory store starts at once: a relay without a shared store needs no start().
  if (store.name === 'memory') start().catch(failed)

  const sweeper = createStoreSweeper(ctx, {
    intervalMs: parameters.sweepIntervalMs ?? 60_000,
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
        loading: undefined,
        closed: false,
      }
      conns.add(conn)
      counts.connections++
      return {
        receive: (text) => receive(conn, text),
        receiveBinary: () => {
          counts.invalid++
          socket.send(
            errorFrame('null', RPC_INVALID_REQUEST, 'Invalid request: binary frames are not JSON-RPC'),
          )
        },
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
