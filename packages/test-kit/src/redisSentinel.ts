import { type ChildProcess, spawn } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Redis } from 'ioredis'
import { freePort } from './freePort.js'
import { waitFor } from './waitFor.js'

/** One process of a {@link TestRedisSentinel}: a redis-server (primary or replica) or a sentinel. */
export type SentinelMember = {
  port: number
  /** The process id; undefined once it stopped. */
  pid: number | undefined
  /** Stops it with `signal` (by its PID) and resolves once it exited. */
  stop(signal?: NodeJS.Signals): Promise<void>
}

/** A primary, its replicas and three sentinels watching them, for tests (see {@link startRedisSentinel}). */
export type TestRedisSentinel = {
  /** `redis+sentinel://127.0.0.1:p1,127.0.0.1:p2,127.0.0.1:p3/{masterName}`, for `createRedisBackend` and the rest. */
  url: string
  /** The name the sentinels monitor the primary under. */
  masterName: string
  /** A key prefix no other test run uses. */
  keyPrefix: string
  /** The redis-servers, the first one started as primary. */
  servers: SentinelMember[]
  sentinels: SentinelMember[]
  /** The port of the server every running sentinel names primary, once they agree and it says so itself. */
  primary(): Promise<number>
  /**
   * Waits (at most `timeoutMs`) until every running sentinel names a primary other than `port` and that server
   * answers as a primary; resolves with its port.
   */
  failedOver(port: number, timeoutMs?: number): Promise<number>
  /** Stops every process (by PID) and removes their files. */
  stop(): Promise<void>
}

/** Options of {@link startRedisSentinel}. */
export type StartRedisSentinelParameters = {
  /** Replicas of the primary. @default 1 */
  replicas?: number | undefined
  /** Sentinels. @default 3 */
  sentinels?: number | undefined
  /** Sentinels that must agree the primary is down (`sentinel monitor … quorum`). @default 2 */
  quorum?: number | undefined
  /** `sentinel down-after-milliseconds`: silence after which a sentinel deems the primary down. @default 1000 */
  downAfterMs?: number | undefined
  /** `sentinel failover-timeout`. @default 2000 */
  failoverTimeoutMs?: number | undefined
}

const MASTER_NAME = 'pairlink'
const REDIS_SERVER = () => process.env.REDIS_SERVER ?? '/usr/bin/redis-server'

/**
 * Spawns a redis-server primary, its replicas and three sentinels (`redis-server <conf> --sentinel`) on free
 * loopback ports, with short failover timings (a second of silence and the sentinels fail over), and resolves once
 * every replica is in sync and every sentinel knows the primary, its replicas and the other sentinels. Stops every
 * process by its PID. Never uses `REDIS_URL`: a test that kills the primary needs servers of its own.
 *
 * @example
 * const cluster = await startRedisSentinel()
 * afterAll(() => cluster.stop())
 * const backend = createRedisBackend({ url: cluster.url })
 */
export async function startRedisSentinel(
  parameters: StartRedisSentinelParameters = {},
): Promise<TestRedisSentinel> {
  const { replicas = 1, sentinels: sentinelCount = 3, quorum = 2 } = parameters
  const { downAfterMs = 1_000, failoverTimeoutMs = 2_000 } = parameters
  const dir = mkdtempSync(join(tmpdir(), 'pairlink-sentinel-'))
  const members: SentinelMember[] = []
  const clients: Redis[] = []
  const stop = async () => {
    for (const client of clients.splice(0)) client.disconnect()
    await Promise.all(members.map((member) => member.stop('SIGTERM')))
    rmSync(dir, { recursive: true, force: true })
  }
  try {
    const common = ['--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', dir]
    // Diskless and at once: a replica in sync within milliseconds of starting.
    const sync = [
      '--repl-diskless-sync',
      'yes',
      '--repl-diskless-sync-delay',
      '0',
      '--repl-ping-replica-period',
      '1',
    ]
    const primaryPort = await freePort()
    const servers = [
      await spawnMember(
        primaryPort,
        [...common, ...sync, '--port', String(primaryPort)],
        'Ready to accept connections',
      ),
    ]
    members.push(...servers)
    for (let i = 0; i < replicas; i++) {
      const port = await freePort()
      const args = [
        ...common,
        ...sync,
        '--port',
        String(port),
        '--replicaof',
        '127.0.0.1',
        String(primaryPort),
      ]
      const member = await spawnMember(port, args, 'Ready to accept connections')
      servers.push(member)
      members.push(member)
    }
    const sentinels: SentinelMember[] = []
    for (let i = 0; i < sentinelCount; i++) {
      const port = await freePort()
      const conf = join(dir, `sentinel-${port}.conf`)
      writeFileSync(
        conf,
        [
          `port ${port}`,
          'bind 127.0.0.1',
          `dir ${dir}`,
          `sentinel monitor ${MASTER_NAME} 127.0.0.1 ${primaryPort} ${quorum}`,
          `sentinel down-after-milliseconds ${MASTER_NAME} ${downAfterMs}`,
          `sentinel failover-timeout ${MASTER_NAME} ${failoverTimeoutMs}`,
          `sentinel parallel-syncs ${MASTER_NAME} 1`,
          '',
        ].join('\n'),
      )
      const member = await spawnMember(port, [conf, '--sentinel'], '+monitor master')
      sentinels.push(member)
      members.push(member)
    }
    const connect = (port: number) => {
      const client = new Redis({ host: '127.0.0.1', port, lazyConnect: true, maxRetriesPerRequest: 0 })
      client.on('error', () => {})
      clients.push(client)
      return client
    }
    const sentinelClients = sentinels.map((member) => ({ member, client: connect(member.port) }))
    const serverClients = new Map(servers.map((member) => [member.port, connect(member.port)]))
    const running = () => sentinelClients.filter(({ member }) => member.pid !== undefined)
    // What every running sentinel names primary, when they agree.
    const agreed = async () => {
      const named = await Promise.all(
        running().map(({ client }) => client.call('SENTINEL', 'get-master-addr-by-name', MASTER_NAME)),
      )
      const ports = new Set(named.map((answer) => Number((answer as [string, string] | null)?.[1])))
      return ports.size === 1 ? ([...ports][0] as number) : undefined
    }
    const role = async (port: number) => {
      const info = await serverClients.get(port)?.info('replication')
      return /role:(\w+)/.exec(info ?? '')?.[1]
    }
    const primary = () =>
      waitFor(
        async () => {
          const port = await agreed()
          return port !== undefined && (await role(port)) === 'master' ? port : undefined
        },
        { message: 'the sentinels agree on a primary', timeout: 10_000 },
      )

    // Every replica in sync, and every sentinel sees the primary, every replica and every other sentinel.
    await waitFor(
      async () => {
        const info = (await serverClients.get(primaryPort)?.info('replication')) ?? ''
        const online = info.match(/state=online/g)?.length ?? 0
        if (online < replicas) return false
        for (const { client } of sentinelClients) {
          const known = (await client.call('SENTINEL', 'replicas', MASTER_NAME)) as unknown[]
          const others = (await client.call('SENTINEL', 'sentinels', MASTER_NAME)) as unknown[]
          if (known.length < replicas || others.length < sentinelCount - 1) return false
          await client.call('SENTINEL', 'ckquorum', MASTER_NAME)
        }
        return true
      },
      {
        message: 'the sentinels agree on the primary, its replicas and each other',
        timeout: 20_000,
        interval: 50,
      },
    )
    await primary()

    const hosts = sentinels.map((member) => `127.0.0.1:${member.port}`).join(',')
    return {
      url: `redis+sentinel://${hosts}/${MASTER_NAME}`,
      masterName: MASTER_NAME,
      keyPrefix: `pairlink:test:${randomBytes(6).toString('hex')}:`,
      servers,
      sentinels,
      primary,
      failedOver: (port, timeoutMs = 30_000) =>
        waitFor(
          async () => {
            const next = await agreed()
            return next !== undefined && next !== port && (await role(next)) === 'master' ? next : undefined
          },
          { message: `the sentinels fail over from ${port}`, timeout: timeoutMs, interval: 20 },
        ),
      stop,
    }
  } catch (error) {
    await stop()
    throw error
  }
}

/** Spawns redis-server with `args` and resolves once its output says `ready`. */
async function spawnMember(port: number, args: string[], ready: string): Promise<SentinelMember> {
  const child: ChildProcess = spawn(REDIS_SERVER(), args, { stdio: ['ignore', 'pipe', 'pipe'] })
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`redis-server on ${port} did not start within 5 s`)),
      5_000,
    )
    let output = ''
    child.stdout?.on('data', (chunk: Buffer) => {
      // Kept only until ready: a long-running server's log is not held in memory.
      if (output.length < 65_536) output += chunk.toString()
      if (output.includes(ready)) {
        clearTimeout(timer)
        output = ''
        resolve()
      }
    })
    child.stderr?.resume()
    child.once('exit', (code) => {
      clearTimeout(timer)
      reject(new Error(`redis-server on ${port} exited with ${code}: ${output.slice(-500)}`))
    })
  })
  child.stdout?.resume()
  const member: SentinelMember = {
    port,
    pid: child.pid,
    async stop(signal = 'SIGTERM') {
      if (member.pid === undefined || child.exitCode !== null || child.signalCode !== null) {
        member.pid = undefined
        return
      }
      const exited = new Promise((resolve) => child.once('exit', resolve))
      process.kill(member.pid, signal)
      await exited
      member.pid = undefined
    },
  }
  return member
}
