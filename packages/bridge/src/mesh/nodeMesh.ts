import { randomBytes } from 'node:crypto'
import type { Redis } from 'ioredis'
import { BackendError } from '../errors.js'
import { parseLinkAddress } from './linkOptions.js'
import { createNodeLinks, type NodeLinks } from './nodeLinks.js'
import { createNodeStreams, type NodeStreams } from './nodeStreams.js'
import { createScriptGate } from './scriptGate.js'
import { createStreamReceiver } from './streamReceiver.js'

/** Where a node listens for links from the other nodes, and what it tells them. */
export type NodeLinkOptions = {
  /** Address to listen on for other nodes. @default '127.0.0.1' */
  host?: string | undefined
  /** Port to listen on for other nodes. @default 0 (a free port) */
  port?: number | undefined
  /**
   * `host:port` (`[v6]:port`) the other nodes dial: set it when they reach this node at another address than the one
   * it listens on (behind NAT, in containers, or listening on 0.0.0.0). @default the host and port listened on
   */
  advertise?: string | undefined
  /**
   * Secret every node proves it knows when a link opens (HMAC-SHA256, once per connection). @default a random one
   * kept in Redis, created by the first node that starts
   */
  secret?: string | undefined
}

// Largest frame on a link; a larger message goes through Redis.
const MAX_LINK_FRAME_BYTES = 16_777_216
// Bytes sent on one link and not acked yet beyond which it is dropped (its messages then go through Redis).
const MAX_UNACKED_BYTES = 16_777_216
// A node's advertised address lives this long unless refreshed (every tenth sweep, 10 s).
const ADDRESS_TTL_MS = 30_000
const SWEEP_MS = 1_000

/** Parameters of {@link createNodeMesh}. */
export type CreateNodeMeshParameters = {
  nodeId: string
  prefix: string
  commands: Redis
  /** `false`: no links; this node still understands numbered messages others send it through Redis. */
  links: NodeLinkOptions | false
  /** Handles a message (`d…`, `b…`, or empty: a fence) from another node, in the order it was sent. */
  handle(message: Buffer): void
  failed(error: unknown): void
  /** Messages of another node that never came and were given up. */
  gap(origin: string, missing: number): void
}

/**
 * Links between the bridge nodes sharing one Redis: each node advertises `host:port` under `{prefix}link:{id}` (with
 * a TTL it refreshes) and sends its frames for another node over a TCP link to it while one is up, through the
 * node's Redis channel otherwise, numbered so that the receiver handles them in order and once (see nodeStreams.ts).
 */
export function createNodeMesh(parameters: CreateNodeMeshParameters) {
  const { nodeId, prefix, commands, failed } = parameters
  const addressKey = (node: string) => `${prefix}link:${node}`
  let links: NodeLinks | undefined
  let streams: NodeStreams | undefined
  let gate: ReturnType<typeof createScriptGate> | undefined
  let advertised: string | undefined
  let sweeper: NodeJS.Timeout | undefined
  let sweeps = 0

  const receiver = createStreamReceiver({
    handle: parameters.handle,
    ack: (origin, epoch, seq) => links?.ack(origin, epoch, seq),
    gap: parameters.gap,
  })

  const secretOf = async (options: NodeLinkOptions) => {
    if (options.secret !== undefined) return Buffer.from(options.secret)
    const key = `${prefix}link-secret`
    await commands.set(key, randomBytes(32).toString('hex'), 'NX')
    const secret = await commands.get(key)
    if (!secret) throw new BackendError('The node link secret is missing from Redis')
    return Buffer.from(secret)
  }

  const advertise = () =>
    advertised === undefined
      ? Promise.resolve()
      : commands.set(addressKey(nodeId), advertised, 'PX', ADDRESS_TTL_MS).then(() => undefined)

  return {
    async start() {
      const options = parameters.links
      if (options === false) return
      if (options.advertise !== undefined && !parseLinkAddress(options.advertise))
        throw new BackendError(`Invalid node link address to advertise: ${options.advertise}`)
      const secret = await secretOf(options)
      const created = createNodeLinks({
        nodeId,
        secret,
        maxFrameBytes: MAX_LINK_FRAME_BYTES,
        addressOf: async (node) => (await commands.get(addressKey(node))) ?? undefined,
        onUp: (node, link) => streams?.up(node, link),
        onDown: (node) => streams?.down(node),
        onAck: (node, epoch, seq) => streams?.acked(node, epoch, seq),
        onMessage: (_origin, body) => receiver.receive(body, true),
        onAckRequest: (origin) => receiver.ackNow(origin),
        failed,
      })
      links = created
      const host = options.host ?? '127.0.0.1'
      const { port } = await created.listen(host, options.port ?? 0)
      advertised = options.advertise ?? (host.includes(':') ? `[${host}]:${port}` : `${host}:${port}`)
      streams = createNodeStreams({
        nodeId,
        publish: (node, message) => commands.publish(`${prefix}n:${node}`, message),
        dial: (node) => created.dial(node),
        hangUp: (node) => created.hangUp(node),
        maxFrameBytes: MAX_LINK_FRAME_BYTES,
        maxUnackedBytes: MAX_UNACKED_BYTES,
        onSettled: () => gate?.check(),
      })
      gate = createScriptGate(streams)
      await advertise()
      sweeper = setInterval(() => {
        streams?.sweep(Date.now())
        receiver.sweep()
        if (++sweeps % 10 === 0) advertise().catch(failed)
      }, SWEEP_MS).unref()
    },
    /** Sends a message to `node` (see {@link NodeStreams}); undefined when links are off. */
    get send() {
      return streams?.send
    },
    /** A numbered message from another node's Redis channel. */
    receive: (message: Buffer) => receiver.receive(message, false),
    /** Runs a script that may publish to any node, in order with the link messages (see {@link NodeStreams}). */
    script<T>(run: () => Promise<T>, reached: (result: T) => string[]): Promise<T> {
      return gate ? gate.script(run, reached) : run()
    },
    /** Advertises this node's address again (after Redis lost it). */
    advertise,
    async close() {
      clearInterval(sweeper)
      links?.close()
      receiver.close()
      if (advertised !== undefined) await commands.del(addressKey(nodeId)).catch(() => 0)
    },
  }
}
