import type { Redis, RedisOptions } from 'ioredis'
import { BackendError } from '../errors.js'
import type { Logger } from '../logger.js'
import { createRedisClient, within } from '../redisNode.js'
import { DEFAULT_REDIS_WAIT_TIMEOUT_MS, type ReplicaWait } from '../redisOptions.js'

/**
 * Resolves once every write Redis had answered before the call is held by `wait.replicas` replicas, or by every
 * connected replica when fewer are connected (none connected: at once, as no failover could then lose it to a
 * replica that lacks it; `replicasChanged` hears of each change of that count). It runs on a connection of its own
 * (`client`): WAIT blocks the connection it runs on, and the store's commands must not queue behind it. WAIT counts
 * the writes of its own connection only, so it follows a small write there (`SET markKey`), which Redis ran after
 * every write already answered on the others: the replicas hold those once they hold it. One write, ROLE and WAIT,
 * in one round trip, serve every caller of a turn of the event loop. Rejects with `BackendError` when fewer replicas confirm within
 * `wait.timeoutMs` or the connection fails: the caller then does not promise the write was kept.
 */
function createReplicaWait(
  client: Redis,
  wait: ReplicaWait,
  markKey: string,
  replicasChanged: (connected: number) => void,
): () => Promise<void> {
  const timeoutMs = wait.timeoutMs ?? DEFAULT_REDIS_WAIT_TIMEOUT_MS
  let next: Promise<void> | undefined
  let connected: number | undefined
  const run = async () => {
    next = undefined
    // As many as were connected last time (all asked for, the first time): one round trip. ROLE then says how many
    // are connected now, for the next time.
    const wanted = Math.min(wait.replicas, connected ?? wait.replicas)
    const pipeline = client.pipeline().set(markKey, '1', 'PX', 60_000).role()
    if (wanted > 0) pipeline.wait(wanted, timeoutMs)
    const [set, role, waited] = (await pipeline.exec()) ?? []
    const error = set?.[0] ?? role?.[0] ?? waited?.[0]
    if (error) throw new BackendError('Cannot confirm the write on a replica', { cause: error })
    // ['master', offset, [[host, port, offset], …]]: the replicas connected now.
    const [kind, , replicas] = (role?.[1] ?? []) as [string?, number?, unknown[]?]
    if (kind !== 'master') throw new BackendError(`Redis answered as a ${kind}, not the primary`)
    const count = replicas?.length ?? 0
    if (count !== connected) replicasChanged(count)
    connected = count
    // Those waited for that are still connected must have confirmed; one that left meanwhile cannot.
    const needed = Math.min(wanted, count)
    const confirmed = (waited?.[1] as number | undefined) ?? 0
    if (confirmed < needed)
      throw new BackendError(
        `The write reached ${confirmed} of ${needed} replicas within ${timeoutMs} ms: not confirmed as kept`,
      )
  }
  return () => {
    next ??= new Promise<void>((resolve) => setImmediate(resolve)).then(run)
    return next
  }
}

/** What {@link createReplicaWaiter} returns: the wait, and its connection's life. */
export type ReplicaWaiter = {
  wait(): Promise<void>
  connect(failed: (error: unknown) => void): Promise<void>
  disconnect(): void
}

/**
 * {@link createReplicaWait} on a connection of its own to `url`, logging each change of the connected replicas
 * against those asked for (fewer: at `warn`, as acknowledged messages then have fewer copies; docs/redis-ha.md).
 */
export function createReplicaWaiter(
  url: string,
  redisOptions: RedisOptions | undefined,
  wait: ReplicaWait,
  markKey: string,
  logger: () => Logger,
): ReplicaWaiter {
  const client = createRedisClient(url, {
    lazyConnect: true,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
    ...redisOptions,
  })
  const replicated = createReplicaWait(client, wait, markKey, (connected) => {
    const log = { store: 'redis', connected, wanted: wait.replicas }
    if (connected < wait.replicas) logger().warn(log, 'fewer Redis replicas connected than waited for')
    else logger().info(log, 'Redis replicas connected')
  })
  return {
    wait: replicated,
    async connect(failed) {
      client.on('error', failed)
      await within(client.connect())
    },
    disconnect: () => client.disconnect(),
  }
}
