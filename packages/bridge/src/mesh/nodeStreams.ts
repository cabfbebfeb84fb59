import { encodeLinkFrame, LinkFrame, sequencedHead } from './linkWire.js'
import type { NodeLink } from './nodeLinks.js'

/** One message to a node: settled once handled there (acked on the link), or once Redis answered for it. */
type Entry = {
  seq: number
  message: string
  bytes: number
  onLink: boolean
  settled: boolean
  resolve: (listeners: number) => void
  reject: (error: unknown) => void
}

/** This node's messages to one other node, numbered, over the link when it is up and through Redis otherwise. */
type Stream = {
  node: string
  /** Numbers restart with each stream this node opens to `node`. */
  epoch: number
  seq: number
  /** Unsettled entries in order, from `head` on (settled ones before it are dropped as it moves). */
  entries: Entry[]
  head: number
  link: NodeLink | undefined
  /** Bytes sent on the link and not acked yet, and the number of the last message sent on it. */
  linkBytes: number
  lastOnLink: number
  /** Every link entry up to this one is acked or went to Redis. */
  linkSettled: number
  ackRequested: boolean
  /** When the link last had nothing unacked, or last acked (ms): too long ago, and the link is dropped. */
  waitingSince: number
  sent: number
  idleSweeps: number
}

const noop = () => {}
// The head of a link frame and of a sequenced message, bounded.
const HEAD_BYTES = 64
// A link whose oldest unacked message waited this long is dropped; after a second, an ack is asked for.
const ACK_TIMEOUT_MS = 5_000
const ACK_ASK_MS = 1_000
// Sweeps (one a second) without a message before a stream and its link are forgotten.
const IDLE_SWEEPS = 60

/** Parameters of {@link createNodeStreams}. */
export type CreateNodeStreamsParameters = {
  nodeId: string
  /** Publishes on `node`'s Redis channel; resolves with how many listened. */
  publish(node: string, message: string): Promise<number>
  /** Dials `node` (a no-op while a link is up or on its way), and closes the link to it. */
  dial(node: string): void
  hangUp(node: string): void
  /** Largest frame a link takes; a larger message goes through Redis. */
  maxFrameBytes: number
  /** Bytes unacked on one link beyond which it is dropped (its messages go through Redis). */
  maxUnackedBytes: number
  /** Link messages were acked, or went through Redis after their link went down. */
  onSettled(): void
}

/** The last message sent on a link to a node when it was taken (see {@link NodeStreams.marks}). */
export type LinkMark = { readonly stream: Stream; readonly seq: number }

/**
 * The sending side of the node streams. Every message to a node gets the next number of that node's stream, so the
 * node handles them in order whichever way each came (link or Redis): switching ways never reorders, a message
 * re-sent the other way after a link broke is handled once. Frames the Redis script publishes carry no number; a
 * fence (an empty numbered message through Redis, after the script) keeps later link messages behind them. A message
 * neither way could carry (Redis answered nobody, or failed, while the link was down) leaves a gap the receiver
 * waits out (see streamReceiver.ts); its frames went through the script meanwhile.
 */
export function createNodeStreams(parameters: CreateNodeStreamsParameters) {
  const { nodeId, maxFrameBytes, maxUnackedBytes } = parameters
  const streams = new Map<string, Stream>()
  let epochs = 0
  // While a script may publish, messages go through Redis, behind it (see scriptGate.ts).
  let holds = 0

  const settle = (stream: Stream, entry: Entry, listeners: number) => {
    if (entry.settled) return
    entry.settled = true
    if (entry.onLink) stream.linkBytes -= entry.bytes
    entry.resolve(listeners)
    const { entries } = stream
    // Entries settle about in order (acks are cumulative, Redis answers in order): once all are, the list empties.
    while (stream.head < entries.length && (entries[stream.head] as Entry).settled) stream.head++
    if (stream.head < entries.length) return
    entries.length = 0
    stream.head = 0
  }

  const writeLink = (stream: Stream, entry: Entry, link: NodeLink) => {
    if (stream.linkBytes === 0) stream.waitingSince = Date.now()
    entry.onLink = true
    stream.linkBytes += entry.bytes
    if (entry.seq > stream.lastOnLink) stream.lastOnLink = entry.seq
    const head = sequencedHead(nodeId, stream.epoch, entry.seq)
    link.send(encodeLinkFrame(LinkFrame.message, head, entry.message))
  }

  const publishRedis = (stream: Stream, entry: Entry) => {
    entry.onLink = false
    const message = sequencedHead(nodeId, stream.epoch, entry.seq) + entry.message
    parameters.publish(stream.node, message).then(
      (listeners) => {
        if (entry.settled) return
        // Its Redis channel has nobody (reconnecting?) but the link is up: the other way then.
        if (listeners === 0 && stream.link) writeLink(stream, entry, stream.link)
        else settle(stream, entry, listeners)
      },
      (error: unknown) => {
        if (entry.settled) return
        if (stream.link) return writeLink(stream, entry, stream.link)
        settle(stream, entry, 0)
        entry.reject(error)
      },
    )
  }

  // One literal of one shape (no spread): an entry is made per message.
  const push = (
    stream: Stream,
    message: string,
    bytes: number,
    resolve: Entry['resolve'] = noop,
    reject: Entry['reject'] = noop,
  ) => {
    const entry: Entry = { seq: ++stream.seq, message, bytes, onLink: false, settled: false, resolve, reject }
    stream.entries.push(entry)
    return entry
  }

  const open = (node: string) => {
    let stream = streams.get(node)
    if (stream) return stream
    const empty = {
      seq: 0,
      entries: [],
      head: 0,
      link: undefined,
      linkBytes: 0,
      lastOnLink: 0,
      linkSettled: 0,
    }
    stream = { node, epoch: ++epochs, ...empty, ackRequested: false, waitingSince: 0, sent: 0, idleSweeps: 0 }
    streams.set(node, stream)
    return stream
  }

  // Messages on a link that went down go through Redis, in order; the node drops those it handled already.
  const down = (stream: Stream) => {
    stream.link = undefined
    stream.linkSettled = stream.seq
    stream.ackRequested = false
    for (let i = stream.head; i < stream.entries.length; i++) {
      const entry = stream.entries[i] as Entry
      if (entry.settled || !entry.onLink) continue
      stream.linkBytes -= entry.bytes
      publishRedis(stream, entry)
    }
    parameters.onSettled()
  }

  // A link too far behind (or silent): closed, its messages through Redis; the next message redials.
  const drop = (stream: Stream) => {
    parameters.hangUp(stream.node)
    down(stream)
  }

  const fence = (stream: Stream) => publishRedis(stream, push(stream, '', 0))

  return {
    /** Sends `message` (`bytes` long) to `node`; `resolve` gets how many listened (1 once acked over the link). */
    send(node: string, message: string, bytes: number, resolve: Entry['resolve'], reject: Entry['reject']) {
      const stream = open(node)
      stream.sent++
      const entry = push(stream, message, bytes, resolve, reject)
      const { link } = stream
      // Redis meanwhile; the link is redialled (with backoff) while messages go to the node.
      if (!link) parameters.dial(node)
      else if (stream.linkBytes + bytes > maxUnackedBytes) drop(stream)
      else if (holds === 0 && bytes + HEAD_BYTES <= maxFrameBytes) return writeLink(stream, entry, link)
      publishRedis(stream, entry)
    },
    /** Messages go through Redis while held (`true` once per hold, `false` once per release). */
    hold(on: boolean) {
      holds += on ? 1 : -1
    },
    /** A mark per link with messages not acked yet, each asked for an ack now. */
    marks() {
      const marks: LinkMark[] = []
      for (const stream of streams.values()) {
        if (stream.linkBytes === 0 || !stream.link) continue
        // Not `stream.seq`: a later message through Redis may wait at the node for a link one, not the reverse.
        marks.push({ stream, seq: stream.lastOnLink })
        if (!stream.ackRequested) stream.link.send(encodeLinkFrame(LinkFrame.ackNow))
        stream.ackRequested = true
      }
      return marks
    },
    /** Whether every link message up to `mark` was acked or went through Redis. */
    passed: (mark: LinkMark) => mark.stream.linkSettled >= mark.seq,
    /** An empty numbered message to `node` through Redis: later link messages are handled after what came before. */
    fence(node: string) {
      const stream = streams.get(node)
      if (stream) fence(stream)
    },
    /** The link to `node` is up: a fence first, so what Redis carried before is handled before it. */
    up(node: string, link: NodeLink) {
      const stream = open(node)
      fence(stream)
      stream.link = link
    },
    down(node: string) {
      const stream = streams.get(node)
      if (stream?.link) down(stream)
    },
    /** `node` handled this node's messages up to `seq` of stream `epoch`. */
    acked(node: string, epoch: number, seq: number) {
      const stream = streams.get(node)
      if (stream?.epoch !== epoch) return
      // Settling the first unsettled entry moves `head` to the next one.
      let entry = stream.entries[stream.head]
      for (; entry && entry.seq <= seq; entry = stream.entries[stream.head]) settle(stream, entry, 1)
      if (seq > stream.linkSettled) stream.linkSettled = seq
      stream.ackRequested = false
      stream.waitingSince = Date.now()
      parameters.onSettled()
    },
    /** Once a second: asks for late acks, drops links that stopped acking, forgets idle streams. */
    sweep(now: number) {
      for (const stream of streams.values()) {
        const { link } = stream
        if (link && stream.linkBytes > 0 && now - stream.waitingSince > ACK_ASK_MS) {
          if (now - stream.waitingSince > ACK_TIMEOUT_MS) drop(stream)
          else link.send(encodeLinkFrame(LinkFrame.ackNow))
        }
        stream.idleSweeps = stream.sent > 0 || stream.head < stream.entries.length ? 0 : stream.idleSweeps + 1
        stream.sent = 0
        if (stream.idleSweeps < IDLE_SWEEPS) continue
        streams.delete(stream.node)
        parameters.hangUp(stream.node)
      }
    },
  }
}

/** What {@link createNodeStreams} returns. */
export type NodeStreams = ReturnType<typeof createNodeStreams>
