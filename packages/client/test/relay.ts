import { type WebSocket, WebSocketServer } from 'ws'

/** One frame a client sent to the relay. */
export type RelayFrame = { socket: number; raw: string }

/** A tiny faithful v1 relay for tests (reference §3.3): deliver to every other subscriber, else queue until a `sub`. */
export type Relay = {
  url: string
  port: number
  /** Every frame clients sent, in order. */
  frames: RelayFrame[]
  /** Request paths of the socket upgrades. */
  paths: string[]
  /** Sends a raw text frame to every open socket (garbage, tampered envelopes). */
  broadcast(raw: string): void
  stop(): Promise<void>
  start(): Promise<void>
}

/** Starts the relay on 127.0.0.1 (port 0 picks one; `start` after `stop` reuses it). Queues survive a restart. */
export async function startRelay(port = 0): Promise<Relay> {
  const topics = new Map<string, Set<WebSocket>>()
  const queues = new Map<string, string[]>()
  const frames: RelayFrame[] = []
  const paths: string[] = []
  let server: WebSocketServer | undefined
  let next = 0

  async function start() {
    const wss = new WebSocketServer({ host: '127.0.0.1', port })
    await new Promise<void>((resolve, reject) => {
      wss.once('listening', resolve)
      wss.once('error', reject)
    })
    port = (wss.address() as { port: number }).port
    relay.url = `http://127.0.0.1:${port}`
    relay.port = port
    server = wss
    wss.on('connection', (ws, request) => {
      const socket = ++next
      paths.push(request.url ?? '')
      ws.on('message', (data) => {
        const raw = data.toString()
        frames.push({ socket, raw })
        let frame: { topic?: unknown; type?: unknown }
        try {
          frame = JSON.parse(raw)
        } catch {
          return
        }
        if (typeof frame.topic !== 'string') return
        if (frame.type === 'sub') {
          const set = topics.get(frame.topic) ?? new Set()
          topics.set(frame.topic, set.add(ws))
          for (const queued of queues.get(frame.topic) ?? []) ws.send(queued)
          queues.delete(frame.topic)
        } else if (frame.type === 'pub') {
          const others = [...(topics.get(frame.topic) ?? [])].filter((s) => s !== ws && s.readyState === 1)
          if (others.length === 0) queues.set(frame.topic, [...(queues.get(frame.topic) ?? []), raw])
          for (const other of others) other.send(raw)
        }
      })
      ws.on('close', () => {
        for (const set of topics.values()) set.delete(ws)
      })
    })
  }

  const relay: Relay = {
    url: '',
    port: 0,
    frames,
    paths,
    broadcast(raw) {
      for (const ws of server?.clients ?? []) ws.send(raw)
    },
    async stop() {
      const wss = server
      server = undefined
      if (!wss) return
      for (const ws of wss.clients) ws.terminate()
      topics.clear()
      await new Promise<void>((resolve) => wss.close(() => resolve()))
    },
    start,
  }
  await start()
  return relay
}
