import { WebSocket } from 'ws'

/** A raw v1-style socket for tests: records every frame and waits for the next ones. */
export type TestClient = {
  ws: WebSocket
  received: string[]
  /** Resolves with the next frame not yet taken (in order), or rejects after `timeoutMs`. */
  next(timeoutMs?: number): Promise<string>
  /** Resolves when nothing arrives for `ms` (asserting absence). */
  quiet(ms?: number): Promise<string[]>
  send(frame: string | object): void
  sub(topic: string): void
  pub(topic: string, payload: string, silent?: boolean): string
  closed: Promise<{ code: number; reason: string }>
  close(): Promise<void>
}

/** Opens a socket the way @walletconnect/client@1.8.0 in Node does: no `/` before the query. */
export async function connect(
  url: string,
  options: { query?: string; autoPong?: boolean; headers?: Record<string, string> } = {},
): Promise<TestClient> {
  const ws = new WebSocket(
    url.replace(/^http/, 'ws') + (options.query ?? '?env=node&protocol=wc&version=1'),
    {
      autoPong: options.autoPong ?? true,
      headers: options.headers ?? {},
    },
  )
  const received: string[] = []
  let taken = 0
  const waiters: (() => void)[] = []
  ws.on('message', (data, isBinary) => {
    received.push(isBinary ? `<binary>` : (data as Buffer).toString())
    for (const wake of waiters.splice(0)) wake()
  })
  const closed = new Promise<{ code: number; reason: string }>((resolve) =>
    ws.on('close', (code, reason) => resolve({ code, reason: reason.toString() })),
  )
  await new Promise<void>((resolve, reject) => {
    ws.once('open', () => resolve())
    ws.once('error', reject)
    ws.once('unexpected-response', (_req, res) => reject(new Error(`HTTP ${res.statusCode}`)))
  })
  ws.on('error', () => {})

  const next = (timeoutMs = 2_000) =>
    new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no frame within ${timeoutMs} ms`)), timeoutMs)
      const check = () => {
        if (taken < received.length) {
          clearTimeout(timer)
          resolve(received[taken++] as string)
        } else waiters.push(check)
      }
      check()
    })

  return {
    ws,
    received,
    next,
    async quiet(ms = 150) {
      await new Promise((resolve) => setTimeout(resolve, ms))
      const extra = received.slice(taken)
      taken = received.length
      return extra
    },
    send(frame) {
      ws.send(typeof frame === 'string' ? frame : JSON.stringify(frame))
    },
    sub(topic) {
      ws.send(JSON.stringify({ topic, type: 'sub', payload: '', silent: true }))
    },
    pub(topic, payload, silent = true) {
      const frame = JSON.stringify({ topic, type: 'pub', payload, silent })
      ws.send(frame)
      return frame
    },
    closed,
    async close() {
      if (ws.readyState === ws.CLOSED) return
      ws.close()
      await closed
    },
  }
}

/** Lets the server process what was sent: a round trip through a `sub` of a throw-away topic would also do. */
export const settle = (ms = 50) => new Promise((resolve) => setTimeout(resolve, ms))
