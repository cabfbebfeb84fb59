import { createBridgeServer } from '@pairlink/bridge'

/** The real `@pairlink/bridge` (memory backend, silent by default) on 127.0.0.1 and a free port. */
export async function startBridge() {
  const server = createBridgeServer()
  const { url, port } = await server.listen(0, '127.0.0.1')
  return { url, port, stop: () => server.close() }
}
