import type { Redis } from 'ioredis'
import { BackendError } from '../errors.js'
import { DEFAULT_REDIS_WAIT_TIMEOUT_MS, type ReplicaWait } from '../redisOptions.js'

/**
 * Resolves once `wait.replicas` replicas hold every write Redis had answered before the call, on a connection of its
 * own (`client`): WAIT blocks the connection it runs on, and the store's commands must not queue behind it. WAIT
 * counts the writes of its own connection only, so it follows a small write there (`SET markKey`), which Redis ran
 * after every write already answered on the others: the replicas hold those once they hold it. One write and WAIT
 * serve every caller of a turn of the event loop. Rejects with `BackendError` when fewer replicas confirm within
 * `wait.timeoutMs` or the connection fails: the caller then does not promise the write was kept.
 */
export function createReplicaWait(client: Redis, wait: ReplicaWait, markKey: string): () => Promise<void> {
  const timeoutMs = wait.timeoutMs ?? DEFAULT_REDIS_WAIT_TIMEOUT_MS
  let next: Promise<void> | undefined
  const run = async () => {
    next = undefined
    const results = await client
      .pipeline()
      .set(markKey, '1', 'PX', 60_000)
      .wait(wait.replicas, timeoutMs)
      .exec()
    const [set, waited] = results ?? []
    const error = set?.[0] ?? waited?.[0]
    if (error) throw new BackendError('Cannot confirm the write on a replica', { cause: error })
    const confirmed = waited?.[1] as number
    if (confirmed < wait.replicas)
      throw new BackendError(
        `The write reached ${confirmed} of ${wait.replicas} replicas within ${timeoutMs} ms: not confirmed as kept`,
      )
  }
  return () => {
    next ??= new Promise<void>((resolve) => setImmediate(resolve)).then(run)
    return next
  }
}
