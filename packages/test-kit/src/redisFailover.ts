import { randomBytes } from 'node:crypto'
import { createBridgeServer, parseRedisOptions, type ReplicaWait } from '@pairlink/bridge'
import { createRedisBackend, createRedisRelayStore } from '@pairlink/bridge/redis'
import { signRelayJwt } from '@pairlink/protocol/v2'
import { Redis } from 'ioredis'
import { WebSocket } from 'ws'
import type { TestRedisSentinel } from './redisSentinel.js'
import { waitFor } from './waitFor.js'

/** Options of {@link runRedisFailover}. */
export type RunRedisFailoverParameters = {
  /** A running cluster; its primary is killed. */
  cluster: TestRedisSentinel
  /** Traffic before the kill, ms. @default 1000 */
  beforeMs?: number | undefined
  /** Traffic after both kinds of delivery resumed, ms. @default 1000 */
  afterMs?: number | undefined
  /** Between two messages of a flow, ms. @default 25 */
  intervalMs?: number | undefined
  /** The relay store's `waitForReplicas`. @default what `parseRedisOptions` says for the cluster's URL (1 replica) */
  waitForReplicas?: ReplicaWait | false | undefined
}

/** One flow's figures: messages sent, delivered once or more, lost, and when delivery resumed after the kill. */
export type FailoverFlow = {
  sent: number
  delivered: number
  lost: number
  duplicated: number
  /** From the kill to the first delivery of a message sent after it, ms. */
  resumeAfterKillMs: number
  /** The same from the moment the sentinels agreed on the new primary (negative: it never stopped), ms. */
  resumeAfterFailoverMs: number
}

/** What {@link runRedisFailover} measured. */
export type RedisFailoverRun = {
  /** From the SIGKILL to every sentinel naming a new primary that answers as one, ms. */
  failoverMs: number
  /** v1 frames both ways between a dapp on node A and a wallet on node B. */
  v1: FailoverFlow
  /**
   * v2 publishes from a dapp on node A to a wallet on node B (live) and to a topic nobody listens to (kept), read
   * back after the failover by a new subscriber on B. `lost` counts messages the relay acknowledged (answered
   * `true`) and never delivered; refused publishes (an error answer) are sent again, as the SDK does.
   */
  v2: FailoverFlow & { acknowledged: number; refused: number; keptAcknowledged: number; keptLost: number }
}

/**
 * Two bridge nodes as `pairlink-bridge` runs them on the cluster (Redis backend with node links, v2 store), v1 and
 * v2 traffic between them, then the cluster's primary SIGKILLed mid-traffic: measures how long the sentinels take to
 * fail over, when each kind of delivery resumes, and what was lost. Scripts are flushed on the new primary once
 * deliveries resumed (NOSCRIPT must be handled). Everything it starts it stops; the cluster stays up (one replica
 * fewer).
 */
export async function runRedisFailover(parameters: RunRedisFailoverParameters): Promise<RedisFailoverRun> {
  const { cluster, beforeMs = 1_000, afterMs = 1_000, intervalMs = 25 } = parameters
  const config = parseRedisOptions({ url: cluster.url })
  if (!config) throw new Error('no Redis URL')
  const waitForReplicas = parameters.waitForReplicas ?? config.waitForReplicas
  const keyPrefix = `${cluster.keyPrefix}${randomBytes(4).toString('hex')}:`
  const cleanups: (() => Promise<unknown> | unknown)[] = []
  try {
    const nodes = []
    for (let i = 0; i < 2; i++) {
      const server = createBridgeServer({
        backend: createRedisBackend({ url: config.url, keyPrefix, links: {} }),
        relay: {
          store: createRedisRelayStore({ url: config.url, keyPrefix: `${keyPrefix}v2:`, waitForReplicas }),
        },
      })
      const { url } = await server.listen(0, '127.0.0.1')
      cleanups.push(() => server.close())
      nodes.push(url.replace('http', 'ws'))
    }
    const [a, b] = nodes as [string, string]
    const open = async (url: string, query: string) => {
      const ws = new WebSocket(`${url}${query}`)
      cleanups.push(() => ws.terminate())
      await new Promise((resolve, reject) => ws.once('open', resolve).once('error', reject))
      return ws
    }
    const v2Query = async (url: string) =>
      `/?auth=${await signRelayJwt({ seed: randomBytes(32), aud: url })}&projectId=failover`
    const v1Query = '?env=node&protocol=wc&version=1'
    const now = () => performance.now()
    let killedAt = Number.POSITIVE_INFINITY

    // v1: both ways, each frame `{flow}:{seq}:{sent at}`.
    const v1 = flowState()
    const dapp1 = await open(a, v1Query)
    const wallet1 = await open(b, v1Query)
    const topics1 = { toWallet: randomBytes(16).toString('hex'), toDapp: randomBytes(16).toString('hex') }
    const v1Frame = (topic: string, payload: string) =>
      JSON.stringify({ topic, type: 'pub', payload, silent: true })
    for (const [ws, topic] of [
      [wallet1, topics1.toWallet],
      [dapp1, topics1.toDapp],
    ] as const) {
      ws.send(JSON.stringify({ topic, type: 'sub', payload: '', silent: true }))
      ws.on('message', (data) => v1.received(String(JSON.parse(String(data)).payload), now(), killedAt))
    }

    // v2: live to the wallet, and kept (nobody subscribed) for a reader after the failover.
    const v2 = flowState()
    const kept = flowState()
    const topic = randomBytes(32).toString('hex')
    const keptTopic = randomBytes(32).toString('hex')
    const dapp2 = await open(a, await v2Query(a))
    const dappKept = await open(a, await v2Query(a))
    const wallet2 = await open(b, await v2Query(b))
    let nextId = 1_795_338_265_514_170_000n
    const call = (ws: WebSocket, method: string, params: unknown) => {
      const id = String(++nextId)
      ws.send(JSON.stringify({ id, jsonrpc: '2.0', method, params }))
      return id
    }
    const subscribeAndAck = (ws: WebSocket, state: FlowState) => {
      ws.on('message', (data) => {
        const frame = JSON.parse(String(data))
        if (frame.method !== 'irn_subscription') return
        state.received(frame.params.data.message, now(), killedAt)
        ws.send(JSON.stringify({ id: frame.id, jsonrpc: '2.0', result: true }))
      })
    }
    subscribeAndAck(wallet2, v2)
    call(wallet2, 'irn_subscribe', { topic })
    let refused = 0
    // Publishes awaiting their answer, by request id; an error answer sends the message again, as the SDK does.
    const publisher = (ws: WebSocket, state: FlowState, to: string) => {
      const waiting = new Map<string, string>()
      const publish = (message: string) =>
        waiting.set(
          call(ws, 'irn_publish', { topic: to, message, ttl: 300, tag: 1108, prompt: false }),
          message,
        )
      ws.on('message', (data) => {
        const frame = JSON.parse(String(data))
        const message = waiting.get(String(frame.id))
        if (message === undefined) return
        waiting.delete(String(frame.id))
        if (frame.result === true) state.acknowledged.add(message)
        else {
          refused++
          setTimeout(() => publish(message), 100)
        }
      })
      return { publish }
    }
    const live = publisher(dapp2, v2, topic)
    const keptPublisher = publisher(dappKept, kept, keptTopic)

    let seq = 0
    const tick = () => {
      seq++
      const at = now()
      for (const [ws, to, flow] of [
        [dapp1, topics1.toWallet, 'w'],
        [wallet1, topics1.toDapp, 'd'],
      ] as const) {
        const payload = `${flow}:${seq}:${at}`
        v1.sent(payload, at)
        ws.send(v1Frame(to, payload))
      }
      const message = `m:${seq}:${at}`
      v2.sent(message, at)
      live.publish(message)
      const keptMessage = `k:${seq}:${at}`
      kept.sent(keptMessage, at)
      keptPublisher.publish(keptMessage)
    }
    const traffic = setInterval(tick, intervalMs)
    cleanups.push(() => clearInterval(traffic))
    await waitFor(() => v1.delivered() > 0 && v2.delivered() > 0, {
      message: 'traffic flows',
      timeout: 10_000,
    })
    await new Promise((resolve) => setTimeout(resolve, beforeMs))

    const primary = await cluster.primary()
    const server = cluster.servers.find((member) => member.port === primary)
    killedAt = now()
    await server?.stop('SIGKILL')
    const next = await cluster.failedOver(primary)
    const failedOverAt = now()
    await waitFor(() => v1.resumedAt() !== undefined && v2.resumedAt() !== undefined, {
      message: 'v1 and v2 deliveries resume',
      timeout: 20_000,
      interval: 5,
    })
    // The new primary never ran this run's scripts on these connections' behalf after a flush: NOSCRIPT, then EVAL.
    const admin = new Redis({ host: '127.0.0.1', port: next, maxRetriesPerRequest: 0 })
    cleanups.push(() => admin.disconnect())
    await admin.script('FLUSH')
    await new Promise((resolve) => setTimeout(resolve, afterMs))
    clearInterval(traffic)

    // What is in flight arrives; refused publishes are sent again until kept.
    await waitFor(
      () =>
        v2.acknowledged.size === v2.count() &&
        kept.acknowledged.size === kept.count() &&
        v1.missing() === 0 &&
        [...v2.acknowledged].every((message) => v2.has(message)),
      { message: 'what was sent arrives', timeout: 15_000, interval: 20 },
    ).catch(() => {})
    // A new subscriber reads what the relay kept for the topic nobody listened to.
    const reader = await open(b, await v2Query(b))
    subscribeAndAck(reader, kept)
    call(reader, 'irn_subscribe', { topic: keptTopic })
    await waitFor(() => [...kept.acknowledged].every((message) => kept.has(message)), {
      message: 'every kept message read back',
      timeout: 10_000,
    }).catch(() => {})

    const figures = (state: FlowState, lost: number): FailoverFlow => {
      const resumedAt = state.resumedAt() ?? Number.NaN
      return {
        sent: state.count(),
        delivered: state.delivered(),
        lost,
        duplicated: state.duplicated(),
        resumeAfterKillMs: Math.round(resumedAt - killedAt),
        resumeAfterFailoverMs: Math.round(resumedAt - failedOverAt),
      }
    }
    const unread = (state: FlowState) =>
      [...state.acknowledged].filter((message) => !state.has(message)).length
    return {
      failoverMs: Math.round(failedOverAt - killedAt),
      v1: figures(v1, v1.missing()),
      v2: {
        ...figures(v2, unread(v2)),
        acknowledged: v2.acknowledged.size,
        refused,
        keptAcknowledged: kept.acknowledged.size,
        keptLost: unread(kept),
      },
    }
  } finally {
    for (const cleanup of cleanups.reverse()) await cleanup()
  }
}

type FlowState = ReturnType<typeof flowState>

/** Messages of one flow: sent (with when), received (how often), acknowledged; when delivery resumed after a kill. */
function flowState() {
  const sentAt = new Map<string, number>()
  const times = new Map<string, number>()
  let firstAfterKill: number | undefined
  return {
    acknowledged: new Set<string>(),
    sent(message: string, at: number) {
      sentAt.set(message, at)
    },
    received(message: string, at: number, killedAt: number) {
      times.set(message, (times.get(message) ?? 0) + 1)
      if (firstAfterKill === undefined && (sentAt.get(message) ?? 0) > killedAt) firstAfterKill = at
    },
    has: (message: string) => times.has(message),
    count: () => sentAt.size,
    delivered: () => times.size,
    missing: () => [...sentAt.keys()].filter((message) => !times.has(message)).length,
    duplicated: () => [...times.values()].reduce((sum, n) => sum + n - 1, 0),
    resumedAt: () => firstAfterKill,
  }
}
