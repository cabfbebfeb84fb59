import { Redis, type RedisOptions } from 'ioredis'
import { BackendError } from './errors.js'
import { isSentinelUrl, sentinelOptions } from './redisOptions.js'

// Pause before a recovery that failed half-way is tried again.
const RECOVER_RETRY_MS = 100
// How long start-up waits for Redis. One server refuses at once when it is down; through Sentinel, ioredis asks the
// sentinels again and again (none reachable, or none naming a primary), so without a bound a node would never start.
const CONNECT_TIMEOUT_MS = 10_000

/**
 * The two connections a node keeps to Redis, shared by the v1 backend and the v2 relay store: one for commands
 * (auto-pipelined; it fails fast while Redis is away instead of piling commands up in memory) and one listening to
 * channels. Both connect lazily, in {@link RedisNode.connect}.
 */
export type RedisNode<Commands extends Redis = Redis> = {
  commands: Commands
  subscriber: Redis
  /**
   * Connects both and listens to `channels`, reporting connection errors to `failed`; throws `BackendError` (and
   * disconnects) when Redis cannot be reached.
   */
  connect(channels: readonly string[], failed: (error: unknown) => void): Promise<void>
  /** Both connections ready and a PING answered within a second. */
  isHealthy(): Promise<boolean>
  /** Runs `leave` (bounded to a second with the quits), then closes both connections. */
  close(leave?: readonly Promise<unknown>[]): Promise<void>
  /**
   * Makes `recover` run after either connection is ready again, one run at a time (a call during a run runs it once
   * more after it), retried after a pause until it succeeds. Returns the trigger.
   */
  onReconnect(recover: () => Promise<void>, failed: (error: unknown) => void): () => void
}

/** Opens (lazily) the command and subscriber connections of one node. */
export function createRedisNode<Commands extends Redis = Redis>(
  url: string,
  redisOptions: RedisOptions | undefined,
  /** Options of the command connection alone (the caller's `redisOptions` still win). */
  commandOptions: RedisOptions = {},
): RedisNode<Commands> {
  const options: RedisOptions = { lazyConnect: true, ...redisOptions }
  const commands = createRedisClient(url, {
    enableAutoPipelining: true,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
    ...commandOptions,
    ...options,
  }) as Commands
  const subscriber = createRedisClient(url, options)
  const ready = () => commands.status === 'ready' && subscriber.status === 'ready'
  return {
    commands,
    subscriber,
    async connect(channels, failed) {
      commands.on('error', failed)
      subscriber.on('error', failed)
      try {
        await within(Promise.all([commands.connect(), subscriber.connect()]))
        await subscriber.subscribe(...channels)
      } catch (error) {
        commands.disconnect()
        subscriber.disconnect()
        throw new BackendError('Cannot connect to Redis', { cause: error })
      }
    },
    async isHealthy() {
      if (!ready()) return false
      const timeout = new Promise<false>((resolve) => setTimeout(() => resolve(false), 1_000).unref())
      return Promise.race([commands.ping().then((reply) => reply === 'PONG'), timeout]).catch(() => false)
    },
    async close(leave = []) {
      const timeout = new Promise((resolve) => setTimeout(resolve, 1_000).unref())
      // QUIT is not auto-pipelined: sent now, it would overtake the commands `leave` queued in this turn.
      const quit = Promise.allSettled(leave).then(() =>
        Promise.allSettled([commands.quit(), subscriber.quit()]),
      )
      await Promise.race([quit, timeout])
      commands.disconnect()
      subscriber.disconnect()
    },
    onReconnect(recover, failed) {
      let running = false
      let again = false
      const trigger = async () => {
        if (!ready()) return
        if (running) {
          again = true
          return
        }
        running = true
        try {
          await recover()
        } catch (error) {
          failed(error)
          setTimeout(trigger, RECOVER_RETRY_MS).unref()
        } finally {
          running = false
          if (again) {
            again = false
            trigger()
          }
        }
      }
      subscriber.on('ready', trigger)
      commands.on('ready', trigger)
      return trigger
    },
  }
}

/**
 * One connection to the Redis `url` names: a `redis://` or `rediss://` server, or through Sentinel
 * (`redis+sentinel://…`) to whichever server the sentinels name primary, following it when they fail over.
 */
export function createRedisClient(url: string, options: RedisOptions): Redis {
  if (!isSentinelUrl(url)) return new Redis(url, options)
  return new Redis({
    ...sentinelOptions(url),
    role: 'master',
    // Told by the sentinels (+switch-master) rather than waiting for the old primary's socket to fail: a primary
    // partitioned away keeps its TCP connections open.
    failoverDetector: true,
    // A demoted primary answers writes with READONLY until its clients are killed: reconnect (the sentinels name
    // the new one) and send the command again, as it did not run.
    reconnectOnError: (error) => (error.message.startsWith('READONLY') ? 2 : false),
    ...options,
  })
}

/** `connecting`, or a rejection once {@link CONNECT_TIMEOUT_MS} passed: the caller disconnects, ending the retries. */
export function within<value>(connecting: Promise<value>): Promise<value> {
  let timer: ReturnType<typeof setTimeout> | undefined
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new Error(`No Redis primary answered within ${CONNECT_TIMEOUT_MS} ms`)),
      CONNECT_TIMEOUT_MS,
    )
  })
  return Promise.race([connecting, timeout]).finally(() => clearTimeout(timer))
}
