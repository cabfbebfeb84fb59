import { randomUUID } from 'node:crypto'
import { WebSocket } from 'ws'

/** A raw v1-style socket for tests: records every frame and waits for the next ones. */
export type TestClient = {
  ws: WebSocket
  /** Every frame received, in order, except the markers of {@link TestClient.sync}. */
  received: string[]
  /** Resolves with the next frame not yet taken (in order), or rejects after `timeoutMs`. */
  next(timeoutMs?: number): Promise<string>
  /**
   * A round trip through the bridge: resolves once the bridge has handled every frame this socket sent before, and
   * everything it wrote to this socket meanwhile has arrived. The marker is a `pub` on a topic of this socket's own
   * (queued, as nobody else subscribes it) that a `sub` then drains; it counts as one published, queued and
   * delivered message.
   */
  sync(timeoutMs?: number): Promise<void>
  /**
   * After a {@link TestClient.sync}, the frames received and not taken yet (and takes them): a frame the bridge wrote
   * to this socket before it handled the marker would be among them, so an empty list means none was written.
   */
  rest(): Promise<string[]>
  send(frame: string | object): void
  sub(topic: string): void
  pub(topic: string, payload: string, silent?: boolean): string
  closed: Promise<{ code: number; reason: string }>
  close(): Promise<void>
}

/** Opens a socket the way @walletconnect/client@1.8.0 in Node does: no `/` before the query. */
export async function connect(
  url: string,
  options: {
    query?: string
    autoPong?: boolean
    headers?: Record<string, string>
    /** Local address to connect from (any of 127.0.0.0/8 on Linux), to act as another client address. */
    localAddress?: string
  } = {},
): Promise<TestClient> {
  const ws = new WebSocket(
    url.replace(/^http/, 'ws') + (options.query ?? '?env=node&protocol=wc&version=1'),
    {
      autoPong: options.autoPong ?? true,
      headers: options.headers ?? {},
      ...(options.localAddress ? { localAddress: options.localAddress } : {}),
    },
  )
  const received: string[] = []
  let taken = 0
  const waiters: (() => void)[] = []
  const syncTopic = `sync:${randomUUID()}`
  let syncs = 0
  const synced = new Map<string, () => void>()
  ws.on('message', (data, isBinary) => {
    const text = isBinary ? `<binary>` : (data as Buffer).toString()
    if (text.includes(syncTopic)) {
      const { payload } = JSON.parse(text) as { payload: string }
      synced.get(payload)?.()
      synced.delete(payload)
      return
    }
    received.push(text)
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

  const sync = (timeoutMs = 2_000) =>
    new Promise<void>((resolve, reject) => {
      const marker = String(++syncs)
      const timer = setTimeout(() => reject(new Error(`no sync marker within ${timeoutMs} ms`)), timeoutMs)
      synced.set(marker, () => {
        clearTimeout(timer)
        resolve()
      })
      ws.send(JSON.stringify({ topic: syncTopic, type: 'pub', payload: marker, silent: true }))
      ws.send(JSON.stringify({ topic: syncTopic, type: 'sub', payload: '', silent: true }))
    })

  return {
    ws,
    received,
    next,
    sync,
    async rest() {
      await sync()
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
