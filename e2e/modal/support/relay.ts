import type { Server as HttpServer } from 'node:http'
import { createRequire } from 'node:module'
import type { WebSocket, WebSocketServer } from 'ws'

// The root `ws` is v7 (CommonJS, no ESM named exports): take its `Server` through require.
const { Server } = createRequire(import.meta.url)('ws') as { Server: typeof WebSocketServer }

/**
 * The smallest v1 bridge the interop test needs (reference §3.3): `sub` joins a topic and receives what was queued
 * for it, `pub` goes to the topic's other subscribers or waits in a bounded queue. Records published topics.
 */
export function attachRelay(server: HttpServer) {
  const wss = new Server({ server })
  const topics = new Map<string, Set<WebSocket>>()
  const queues = new Map<string, string[]>()
  const published: string[] = []
  wss.on('connection', (socket: WebSocket) => {
    socket.on('message', (data) => {
      let message: { topic?: unknown; type?: unknown }
      try {
        message = JSON.parse(String(data))
      } catch {
        return
      }
      if (typeof message.topic !== 'string') return
      const topic = message.topic
      if (message.type === 'sub') {
        topics.set(topic, (topics.get(topic) ?? new Set()).add(socket))
        for (const queued of queues.get(topic) ?? []) socket.send(queued)
        queues.delete(topic)
      } else if (message.type === 'pub') {
        published.push(topic)
        const receivers = [...(topics.get(topic) ?? [])].filter((peer) => peer !== socket)
        for (const peer of receivers) peer.send(String(data))
        if (receivers.length === 0)
          queues.set(topic, [...(queues.get(topic) ?? []), String(data)].slice(-100))
      }
    })
    socket.on('close', () => {
      for (const sockets of topics.values()) sockets.delete(socket)
    })
  })
  return { published, close: () => wss.close() }
}
