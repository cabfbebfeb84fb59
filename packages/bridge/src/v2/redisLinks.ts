// The v2 Redis store's traffic over the node links (`RelayLinks`, lent by the v1 Redis backend of the same node): a
// message for another node's subscribers, and their readers' acks back to the node that holds it, so that a message
// read at once on another node is written to Redis by nobody, as on one node. Link messages of one node to another
// arrive in the order sent, over the link while it is up and through Redis otherwise.
//
// Wire: one link message per node and turn of the event loop, `V` then parts separated by NUL (JSON text and client
// ids hold none): `n{seq} {entry}` (seq 0: held back by its node, not written yet; the entry in the links' own form,
// redisEntry.ts `linkEntryOf`) and `k{id} {client id}` (the ack of a message held back by the receiving node). A node
// reads `m{seq} {entry}` too, the add script's entry, as nodes of the version before this form send it (a node ignores
// parts it does not know, so one of that version ignores `n`: mixed, its readers get those messages from the mailbox).
import type { RelayLinks } from '../backends/backend.js'
import { NODE_ID_LENGTH } from '../mesh/linkWire.js'
import { linkEntryOf, parseEntry, parseLinkEntry } from './redisEntry.js'
import type { StoredMessage } from './store.js'

// A message held back by another node, as received here: offered again to a reader that (re)subscribes here before
// that node wrote it, for this long at most, and at most this many over all topics (the oldest forgotten first).
const UNWRITTEN_MS = 60_000
const MAX_UNWRITTEN = 65_536

/** Parameters of {@link createRelayLinkTraffic}. */
export type CreateRelayLinkTrafficParameters = {
  links: RelayLinks
  /** A message from another node for this node's subscribers, and its JSON text when the link carried it. */
  deliver(message: StoredMessage, json?: string): void
  /** Acks of this node's messages read on another node: message id, then client id. */
  acked(id: string, clientId: string): void
  /** `node` is gone (nobody listens there, found sending it a message of `topic`): it subscribes nothing. */
  gone(node: string, topic: string): void
  failed(error: unknown): void
}

/** The v2 messages and acks a Redis store node exchanges with the others over the node links. */
export function createRelayLinkTraffic(parameters: CreateRelayLinkTrafficParameters) {
  const { links } = parameters
  // Parts of this turn per node, and the topics of its messages (to tell which registrations a gone node leaves).
  let out = new Map<string, { parts: string[]; topics: string[] }>()
  let flushing: ReturnType<typeof setImmediate> | undefined
  // Messages other nodes hold back, by topic then id; and their topic and when they came by id, in the order they came
  // (a Map iterates in insertion order), so the oldest are forgotten first.
  const unwritten = new Map<string, Map<string, StoredMessage>>()
  const arrivals = new Map<string, { topic: string; at: number }>()

  // A topic's map stays when it empties (a topic's next message would make a new one at once: one in flight at a
  // time is the usual traffic); emptied ones are dropped once they outnumber the messages kept.
  const forget = (topic: string, id: string) => {
    arrivals.delete(id)
    unwritten.get(topic)?.delete(id)
  }
  // Forgets what came before `until`, and the oldest beyond the cap.
  const trim = (until: number) => {
    for (const [id, { topic, at }] of arrivals) {
      if (at >= until && arrivals.size <= MAX_UNWRITTEN) break
      forget(topic, id)
    }
    if (unwritten.size > 2 * arrivals.size + 1_024)
      for (const [topic, ofTopic] of unwritten) if (ofTopic.size === 0) unwritten.delete(topic)
  }

  const receive = (text: string) => {
    for (const part of text.slice(1).split('\0')) {
      if (part[0] === 'k') {
        const space = part.indexOf(' ')
        if (space > 0) parameters.acked(part.slice(1, space), part.slice(space + 1))
      } else if (part[0] === 'n') {
        const { message, json } = parseLinkEntry(part.slice(1))
        receiveMessage(message, json)
      } else if (part[0] === 'm') receiveMessage(parseEntry(part.slice(1)))
    }
  }
  const receiveMessage = (message: StoredMessage, json?: string) => {
    if (message.seq === 0) {
      message.seq = undefined
      const now = Date.now()
      const id = message.id as string
      let ofTopic = unwritten.get(message.topic)
      if (!ofTopic) {
        ofTopic = new Map()
        unwritten.set(message.topic, ofTopic)
      }
      ofTopic.set(id, message)
      arrivals.set(id, { topic: message.topic, at: now })
      trim(now - UNWRITTEN_MS)
    }
    parameters.deliver(message, json)
  }

  const flush = () => {
    if (flushing) clearImmediate(flushing)
    flushing = undefined
    if (out.size === 0) return
    const turn = out
    out = new Map()
    for (const [node, { parts, topics }] of turn)
      links.send(node, `V${parts.join('\0')}`, () => {
        for (const topic of topics) parameters.gone(node, topic)
      })
  }
  const add = (node: string, part: string, topic?: string) => {
    let batch = out.get(node)
    if (!batch) {
      batch = { parts: [], topics: [] }
      out.set(node, batch)
    }
    batch.parts.push(part)
    if (topic !== undefined) batch.topics.push(topic)
    flushing ??= setImmediate(flush)
  }

  return {
    /** Starts handling what other nodes send. */
    listen() {
      links.listen((buffer) => {
        try {
          receive(buffer.toString())
        } catch (error) {
          parameters.failed(error)
        }
      })
    },
    /**
     * Sends a message (`seq` 0 while held back) to `nodes` with this turn's; `json`: its message as JSON text, when
     * the caller has it.
     */
    send(nodes: readonly string[], seq: number, message: StoredMessage, json?: string) {
      if (nodes.length === 0) return
      const part = `n${seq} ${linkEntryOf(message, json)}`
      for (const node of nodes) add(node, part, message.topic)
    },
    /**
     * Records that a reader here has a message held back by another node: the ack goes to that node with this turn's.
     * `false` for any other message.
     */
    ack(message: StoredMessage, clientId: string): boolean {
      if (message.seq !== undefined || message.id === undefined) return false
      // A message id starts with its node's id.
      const origin = message.id.slice(0, NODE_ID_LENGTH)
      if (origin === links.nodeId) return false
      forget(message.topic, message.id)
      add(origin, `k${message.id} ${clientId}`)
      return true
    },
    /** Sends this turn's parts now, one link message per node. */
    flush,
    /** Messages of `topic` other nodes hold back that `clientId` did not publish, in the order they came. */
    unwritten(topic: string, clientId: string): StoredMessage[] {
      trim(Date.now() - UNWRITTEN_MS)
      const ofTopic = unwritten.get(topic)
      if (!ofTopic) return []
      const list: StoredMessage[] = []
      for (const message of ofTopic.values()) if (message.from !== clientId) list.push(message)
      return list
    },
  }
}
