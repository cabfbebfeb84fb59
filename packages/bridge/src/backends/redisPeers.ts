// What a node of the Redis backend knows of the other nodes subscribed to each topic: learnt from the enqueue
// script's answer (the nodes it reached), from the nodes a direct frame reached, and from the announcements nodes make
// on the interest channel when they register for a topic; trusted for a while, then asked again.
import { NODE_ID_LENGTH } from '../mesh/linkWire.js'

// How long a node trusts what it knows of a topic's other nodes before asking Redis again. A node that registers
// announces it on the interest channel at once, so this only bounds how long a lost announcement could matter.
const INTEREST_TTL_MS = 5_000
// Topics this node publishes on without subscribing them whose nodes it remembers; the oldest is forgotten beyond.
const MAX_PUBLISHED_TOPICS = 16_384

/** What this node knows about the other nodes subscribed to a topic. */
export type Peers = {
  /** Other nodes registered for the topic and listening, as far as this node knows. */
  nodes: Set<string>
  /** When Redis last told (0: never): until {@link INTEREST_TTL_MS} later, `nodes` is trusted. */
  checkedAt: number
  /** Bumped by each announcement, so an answer Redis gave before it does not undo it. */
  version: number
  /** Nodes that announced the topic lately, with the time (topics with subscribers here only). */
  announced: Map<string, number> | undefined
}

const unknown = (): Peers => ({ nodes: new Set(), checkedAt: 0, version: 0, announced: undefined })

/** The node ids of a script's answer (joined, each {@link NODE_ID_LENGTH} characters). */
export function idsOf(joined: string): string[] {
  const ids: string[] = []
  for (let at = 0; at < joined.length; at += NODE_ID_LENGTH) ids.push(joined.slice(at, at + NODE_ID_LENGTH))
  return ids
}

/** The other nodes of each topic this node subscribes or publishes on, as far as it knows. */
export function createRedisPeers(nodeId: string) {
  // Topics with subscribers on this node. While no other node has any, a frame delivered here needs no Redis at all.
  const topics = new Map<string, Peers>()
  // Topics this node published on without subscribing them (bounded, oldest first).
  const published = new Map<string, Peers>()

  return {
    /** Topics with subscribers on this node, each with its peers. */
    topics,
    /** What is known of `topic`'s other nodes; a topic only published on is remembered (bounded). */
    of(topic: string): Peers {
      let peers = topics.get(topic) ?? published.get(topic)
      if (!peers) {
        peers = unknown()
        published.set(topic, peers)
        if (published.size > MAX_PUBLISHED_TOPICS) published.delete(published.keys().next().value as string)
      }
      return peers
    },
    /** Whether what is known of `peers` is recent enough to go by. */
    fresh: (peers: Peers, now: number) => now - peers.checkedAt < INTEREST_TTL_MS,
    /**
     * What the script answered: the nodes that received the frame when it ran. Nodes announced since are kept, and
     * so are those the script was told had the frame already (`partial`).
     */
    learn(peers: Peers, reached: string, askedAt: number, version: number, partial: boolean) {
      if (!partial && peers.version === version) peers.nodes.clear()
      for (let at = 0; at < reached.length; at += NODE_ID_LENGTH)
        peers.nodes.add(reached.slice(at, at + NODE_ID_LENGTH))
      if (!partial) peers.checkedAt = askedAt
    },
    /** An announcement on the interest channel (`{node id}{topic}`): that node registered for the topic. */
    announced(message: Buffer) {
      const node = message.toString('latin1', 0, NODE_ID_LENGTH)
      if (node === nodeId) return
      const topic = message.toString('utf8', NODE_ID_LENGTH)
      const mine = topics.get(topic)
      const peers = mine ?? published.get(topic)
      if (!peers) return
      peers.nodes.add(node)
      peers.version++
      if (!mine) return
      mine.announced ??= new Map()
      mine.announced.set(node, Date.now())
    },
    /** Whether a node announced `topic` lately and `origin` did not send to it (`sentTo`: node ids, joined). */
    missed(topic: string, origin: string, sentTo: string) {
      const announced = topics.get(topic)?.announced
      if (!announced) return false
      const now = Date.now()
      for (const [node, at] of announced) {
        if (now - at > INTEREST_TTL_MS) announced.delete(node)
        else if (node !== origin && !sentTo.includes(node)) return true
      }
      return false
    },
    /** Whether any node announced `topic` since this node subscribed it (only then can `missed` be true). */
    anyAnnounced: (topic: string) => topics.get(topic)?.announced !== undefined,
    /** This node subscribes `topic`: what was learnt while only publishing on it carries over. */
    subscribe(topic: string) {
      const peers = published.get(topic)
      published.delete(topic)
      topics.set(topic, peers ?? unknown())
    },
    /** This node left `topic`: what it knows is kept as for a topic it publishes on. */
    unsubscribe(topic: string) {
      const peers = topics.get(topic)
      topics.delete(topic)
      if (peers) published.set(topic, { ...peers, announced: undefined })
    },
    /** Forgets the topics only published on (after a lost connection: other nodes may have restarted). */
    forgetPublished() {
      published.clear()
    },
  }
}
