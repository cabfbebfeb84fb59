import { createBridgeServer } from '@pairlink/bridge'

/**
 * The real `@pairlink/bridge` (memory backend, silent by default; the v1 bridge and the v2 relay on one port) on
 * 127.0.0.1 and a free port, with a restart on the same port.
 */
export async function startBridge() {
  let server = createBridgeServer()
  const { url, port } = await server.listen(0, '127.0.0.1')
  return {
    url,
    port,
    /** Closes it: every socket is dropped. */
    stop: () => server.close(),
    /** A fresh one on the same port (its memory starts empty). */
    async start() {
      server = createBridgeServer()
      await server.listen(port, '127.0.0.1')
    },
  }
}
