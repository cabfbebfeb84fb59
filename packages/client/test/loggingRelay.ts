import { type RawData, WebSocket, WebSocketServer } from 'ws'
import { startRelay } from './sdk.js'

/** One socket a client opened through the logging relay: its URL and every text frame it sent, in order. */
export type LoggedSocket = { url: string; sent: string[] }

/**
 * Pairlink's own relay (`@pairlink/bridge`, 127.0.0.1, a free port) behind a recording WebSocket proxy: clients of
 * any make (the published SDK takes only a URL) dial `relayUrl`, the proxy logs their upgrade URL and frames and passes
 * everything on both ways. The relay accepts the proxy's URL as the tokens' `aud`.
 */
export async function startLoggingRelay() {
  const proxy = new WebSocketServer({ host: '127.0.0.1', port: 0 })
  await new Promise((resolve) => proxy.once('listening', resolve))
  const relayUrl = `ws://127.0.0.1:${(proxy.address() as { port: number }).port}`
  const relay = await startRelay({ relayUrls: [relayUrl] })
  const sockets: LoggedSocket[] = []
  proxy.on('connection', (client, request) => {
    const logged: LoggedSocket = { url: `${relayUrl}${request.url ?? ''}`, sent: [] }
    sockets.push(logged)
    const upstream = new WebSocket(`${relay.relayUrl}${request.url ?? ''}`)
    const waiting: string[] = []
    client.on('message', (data: RawData) => {
      const text = String(data)
      logged.sent.push(text)
      if (upstream.readyState === WebSocket.OPEN) upstream.send(text)
      else waiting.push(text)
    })
    upstream.on('open', () => {
      for (const text of waiting.splice(0)) upstream.send(text)
    })
    upstream.on('message', (data: RawData) => client.send(String(data)))
    // Close codes a peer may send on (1005/1006 are only ever reported): the rest become a plain close.
    const end = (socket: WebSocket, code: number, reason: Buffer) => {
      if (socket.readyState > WebSocket.OPEN) return
      if (code === 1000 || (code >= 3000 && code <= 4999)) socket.close(code, reason)
      else socket.close()
    }
    upstream.on('close', (code, reason) => end(client, code, reason))
    client.on('close', (code, reason) => end(upstream, code, reason))
    upstream.on('error', () => client.terminate())
    client.on('error', () => upstream.terminate())
  })
  return {
    relayUrl,
    sockets,
    async stop() {
      for (const client of proxy.clients) client.terminate()
      await new Promise((resolve) => proxy.close(resolve))
      await relay.stop()
    },
  }
}
