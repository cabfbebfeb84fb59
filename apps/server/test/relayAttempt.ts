import WebSocket from 'ws'

/**
 * How a v2 relay takes a socket to `url`: `'open'` when it answers a call on it, `'HTTP 401'` (…) when it refuses the
 * upgrade, or `'3000 Project not found'` (…) when it accepts the upgrade and closes the socket with that code and
 * reason, as WalletConnect's relay refuses. A refused socket is open for a moment first, so an upgrade alone proves
 * nothing: the answer to a subscribe does.
 */
export function relayAttempt(url: string, options: { origin?: string } = {}): Promise<string> {
  return new Promise((resolve) => {
    const ws = new WebSocket(url, options.origin ? { origin: options.origin } : {})
    ws.once('open', () => {
      const params = { topic: 'ab'.repeat(32) }
      ws.send(JSON.stringify({ id: 1_000_000_001, jsonrpc: '2.0', method: 'irn_subscribe', params }))
    })
    ws.once('message', () => {
      ws.terminate()
      resolve('open')
    })
    ws.once('unexpected-response', (_, response) => {
      resolve(`HTTP ${response.statusCode}`)
      ws.terminate()
    })
    ws.once('close', (code, reason) => resolve(`${code} ${reason.toString()}`))
    ws.once('error', () => {})
  })
}
