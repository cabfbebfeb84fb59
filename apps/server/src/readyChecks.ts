import type { Database } from './db/createDatabase.js'
import type { ReadyCheck } from './ready.js'
import { splitCredentials } from './rpcProxy.js'

/** A part that holds Redis connections and can tell whether they serve (the bridge, the relay). */
type RedisPart = { isHealthy(): Promise<boolean> }

/** Parameters of {@link readyChecks}. */
export type ReadyChecksParameters = {
  /** The app's database (PostgreSQL or the embedded one). */
  db: Pick<Database, 'query'>
  /**
   * The parts whose Redis connections must answer, when `REDIS_URL` is set (the bridge's backend, the relay's store);
   * none means no `redis` check.
   */
  redis?: readonly RedisPart[] | undefined
  /** The JSON-RPC node (`RPC_URL` or the dev chain); credentials in it travel as `Authorization`. */
  rpcUrl: string
}

/**
 * The server's `/ready` checks: `database` (`SELECT 1`), `redis` (a PING on each connection, only with `REDIS_URL`)
 * and `chain` (`eth_blockNumber` on the node).
 * @example
 * createReadiness({ checks: readyChecks({ db, redis: redisUrl ? [bridge, relay] : undefined, rpcUrl }) })
 */
export function readyChecks(parameters: ReadyChecksParameters): Record<string, ReadyCheck> {
  const { db, redis, rpcUrl } = parameters
  return {
    database: async () => {
      await db.query('SELECT 1')
    },
    ...(redis && redis.length > 0
      ? {
          redis: async () => {
            const answers = await Promise.all(redis.map((part) => part.isHealthy().catch(() => false)))
            if (!answers.every(Boolean)) throw new Error('not connected, or no answer to PING')
          },
        }
      : {}),
    chain: chainCheck(rpcUrl),
  }
}

/** `eth_blockNumber` answered with a block number: the node serves reads. */
function chainCheck(rpcUrl: string): ReadyCheck {
  const { url, headers } = splitCredentials(rpcUrl)
  return async (signal) => {
    const response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_blockNumber', params: [] }),
      signal,
    })
    if (!response.ok) {
      await response.body?.cancel()
      throw new Error(`HTTP ${response.status}`)
    }
    const body = (await response.json().catch(() => undefined)) as { result?: unknown } | undefined
    if (typeof body?.result !== 'string') throw new Error('no block number in the answer')
  }
}
