import { type BridgeCounts, createBridgeServer } from '@pairlink/bridge'

/** The real `@pairlink/bridge` (memory backend) for tests: its base URL, and a stop and restart on the same port. */
export type TestBridge = {
  url: string
  port: number
  /** Graceful stop: every socket is closed with 1001 (clients then reconnect with backoff). */
  stop(): Promise<void>
  /** A fresh bridge on the same port, as after a process restart (its memory backend starts empty). */
  start(): Promise<void>
  /** The bridge's own counters now (open sockets, queued messages, …), to wait until it saw what a test caused. */
  counts(): BridgeCounts
}

/** Starts the real `@pairlink/bridge` on 127.0.0.1 on a free port (tests never pick a fixed one). */
export async function startBridge(): Promise<TestBridge> {
  let server = createBridgeServer()
  const { url, port } = await server.listen(0, '127.0.0.1')
  return {
    url,
    port,
    stop: () => server.close(),
    counts: () => server.bridge.metrics.counts,
    async start() {
      server = createBridgeServer()
      await server.listen(port, '127.0.0.1')
    },
  }
}
