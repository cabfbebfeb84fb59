// What a v2 Redis store node knows of the other nodes registered for each topic: learnt from the add script (which
// reads `s:{topic}` as it keeps a message), updated by the nodes' announcements, trusted for a while.

// How long a node trusts what it knows of a topic's other nodes. A node that registers for a topic announces it at
// once, so this only bounds how long a lost announcement could matter.
const PEERS_TTL_MS = 10_000
// Topics whose other nodes a node remembers, at most (the oldest is forgotten first).
const MAX_TOPICS = 65_536

// `nodes` is never changed, only replaced: a message sent to them keeps it as the list it went to.
type Peers = { nodes: readonly string[]; until: number }

/** The other nodes of each topic, as far as this node knows now. */
export function createTopicPeers() {
  const peers = new Map<string, Peers>()
  return {
    /** The other nodes registered for `topic`, or `undefined` when not known (or no longer trusted). */
    of(topic: string, now: number): readonly string[] | undefined {
      const known = peers.get(topic)
      return known !== undefined && known.until > now ? known.nodes : undefined
    },
    /** What an add found: `nodes` space-separated. Returns them as a list. */
    learn(topic: string, nodes: string, now: number): readonly string[] {
      peers.delete(topic)
      if (peers.size >= MAX_TOPICS) peers.delete(peers.keys().next().value as string)
      const list = nodes === '' ? [] : nodes.split(' ')
      peers.set(topic, { nodes: list, until: now + PEERS_TTL_MS })
      return list
    },
    /** `node` registered for `topic`. */
    add(topic: string, node: string) {
      const known = peers.get(topic)
      if (known && !known.nodes.includes(node)) known.nodes = [...known.nodes, node]
    },
    /** `node` is gone: it subscribes nothing. */
    remove(node: string) {
      for (const known of peers.values())
        if (known.nodes.includes(node)) known.nodes = known.nodes.filter((other) => other !== node)
    },
    /** Forgets everything (announcements may have been lost). */
    clear() {
      peers.clear()
    },
  }
}
