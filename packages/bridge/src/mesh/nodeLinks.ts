import { type AddressInfo, connect, createServer, type Socket } from 'node:net'
import { HANDSHAKE_TIMEOUT_MS, openLinkConnection, serveLinkConnection } from './linkConnection.js'
import { parseLinkAddress } from './linkOptions.js'
import { encodeLinkFrame, LinkFrame } from './linkWire.js'

// Pause before redialling a node: doubles from the first to the last, with jitter.
const FIRST_RETRY_MS = 100
const LAST_RETRY_MS = 10_000
// A node nothing was sent to for this long is not redialled.
const GIVE_UP_MS = 30_000
// Connections (handshakes included) this node accepts at once.
const MAX_CONNECTIONS = 256

/** A link up to another node: frames sent on it arrive in order, or the link closes. */
export type NodeLink = { send(frame: Buffer): void }

/** Parameters of {@link createNodeLinks}. */
export type CreateNodeLinksParameters = {
  nodeId: string
  /** The secret every node shares; a connection that cannot prove it knows it is closed. */
  secret: Uint8Array
  /** Largest frame accepted from a dialer. */
  maxFrameBytes: number
  /** The address (`host:port`, `[v6]:port`) `node` advertised, or undefined when it has none. */
  addressOf(node: string): Promise<string | undefined>
  /** A link to `node` is up (this node dialled it). */
  onUp(node: string, link: NodeLink): void
  /** The link to `node` is down. */
  onDown(node: string): void
  /** `node` has handled this node's messages up to `seq` of stream `epoch`. */
  onAck(node: string, epoch: number, seq: number): void
  /** A message from `origin` (which dialled this node); `body` may be reused after the call. */
  onMessage(origin: string, body: Buffer): void
  /** `origin` asks for an ack now. */
  onAckRequest(origin: string): void
  /** A connection refused or broken by a protocol error. */
  failed(error: unknown): void
}

type Dial = {
  socket: Socket | undefined
  up: boolean
  attempts: number
  timer?: NodeJS.Timeout
  wantedAt: number
}

/**
 * TCP links between bridge nodes. This node dials the nodes it sends to (one connection each, its frames one way,
 * acks back) and listens for the nodes that send to it. Each connection is authenticated once, by challenge–response
 * over the shared secret (see linkWire.ts); frames then carry no signature.
 */
export function createNodeLinks(parameters: CreateNodeLinksParameters) {
  const { nodeId, secret, failed } = parameters
  const dials = new Map<string, Dial>()
  // The latest authenticated connection from each node: acks go back on it.
  const inbound = new Map<string, Socket>()
  const sockets = new Set<Socket>()
  let closed = false

  const track = (socket: Socket) => {
    sockets.add(socket)
    socket.on('close', () => sockets.delete(socket))
  }

  // The nodes of one deployment are few; anyone else trying is closed within the handshake time-out.
  const server = createServer((socket) => {
    track(socket)
    let origin: string | undefined
    serveLinkConnection(socket, {
      nodeId,
      secret,
      failed,
      maxFrameBytes: parameters.maxFrameBytes,
      onAuthenticated(dialer) {
        origin = dialer
        inbound.get(dialer)?.destroy()
        inbound.set(dialer, socket)
      },
      onMessage: parameters.onMessage,
      onAckRequest: parameters.onAckRequest,
    })
    socket.on('close', () => {
      if (origin !== undefined && inbound.get(origin) === socket) inbound.delete(origin)
    })
  })

  const retry = (node: string, dial: Dial) => {
    if (closed || dials.get(node) !== dial) return
    if (Date.now() - dial.wantedAt > GIVE_UP_MS) {
      dials.delete(node)
      return
    }
    const pause = Math.min(LAST_RETRY_MS, FIRST_RETRY_MS * 2 ** dial.attempts++)
    dial.timer = setTimeout(() => attempt(node, dial), pause * (0.5 + Math.random())).unref()
  }

  const attempt = (node: string, dial: Dial) => {
    parameters.addressOf(node).then(
      (address) => {
        if (closed || dials.get(node) !== dial) return
        const target = address === undefined ? undefined : parseLinkAddress(address)
        if (!target) return retry(node, dial)
        const socket = connect(target)
        dial.socket = socket
        track(socket)
        openLinkConnection(socket, {
          nodeId,
          secret,
          failed,
          node,
          onUp() {
            dial.up = true
            dial.attempts = 0
            parameters.onUp(node, { send: (frame) => socket.write(frame) })
          },
          onAck: (epoch, seq) => parameters.onAck(node, epoch, seq),
        })
        socket.on('close', () => {
          if (dials.get(node) !== dial || dial.socket !== socket) return
          dial.socket = undefined
          if (dial.up) {
            dial.up = false
            parameters.onDown(node)
          }
          retry(node, dial)
        })
      },
      (error: unknown) => {
        failed(error)
        retry(node, dial)
      },
    )
  }

  return {
    /** Listens for the nodes that send to this one. */
    listen(host: string, port: number) {
      server.maxConnections = MAX_CONNECTIONS
      return new Promise<AddressInfo>((resolve, reject) => {
        server.once('error', reject)
        server.listen(port, host, () => {
          server.off('error', reject)
          resolve(server.address() as AddressInfo)
        })
      })
    },
    /** Makes sure a link to `node` is up or on its way (redialled with backoff while messages go to it). */
    dial(node: string) {
      const dial = dials.get(node)
      if (dial) {
        dial.wantedAt = Date.now()
        return
      }
      if (closed) return
      const created: Dial = { socket: undefined, up: false, attempts: 0, wantedAt: Date.now() }
      dials.set(node, created)
      attempt(node, created)
    },
    /** Closes the link to `node` and forgets it; `onDown` is not called. */
    hangUp(node: string) {
      const dial = dials.get(node)
      if (!dial) return
      dials.delete(node)
      clearTimeout(dial.timer)
      dial.socket?.destroy()
    },
    /** Tells `origin` this node handled its messages up to `seq` of stream `epoch` (no-op without a link from it). */
    ack(origin: string, epoch: number, seq: number) {
      inbound.get(origin)?.write(encodeLinkFrame(LinkFrame.ack, `${epoch}.${seq}`))
    },
    /** Stops listening; links this node dialled end once what was written is sent, the others close now. */
    close() {
      closed = true
      server.close()
      for (const dial of dials.values()) {
        clearTimeout(dial.timer)
        if (!dial.socket) continue
        dial.socket.end()
        sockets.delete(dial.socket)
        const socket = dial.socket
        setTimeout(() => socket.destroy(), HANDSHAKE_TIMEOUT_MS).unref()
      }
      dials.clear()
      for (const socket of sockets) socket.destroy()
    },
  }
}

/** What {@link createNodeLinks} returns. */
export type NodeLinks = ReturnType<typeof createNodeLinks>
