import { createBridgeServer } from '@pairlink/bridge'

/** A bridge for tests: a base URL and a way to stop it. */
export type TestBridge = {
  url: string
  port: number
  stop(): Promise<void>
}

/**
 * Starts the real `@pairlink/bridge` (memory backend) on 127.0.0.1 on a free port. The one place that picks the
 * implementation: `startRelay()` from `./relay.js` is the drop-in stand-in, and what tests use to inspect frames.
 */
export async function startBridge(): Promise<TestBridge> {
  const server = createBridgeServer()
  const { url, port } = await server.listen(0, '127.0.0.1')
  return { url, port, stop: () => server.close() }
}
