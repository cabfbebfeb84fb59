import { type CreateBridgeServerParameters, createBridgeServer } from '../src/server.js'

/** Starts a bridge server on a free loopback port `close` is idempotent. */
export async function startBridge(parameters: CreateBridgeServerParameters = {}) {
  const server = createBridgeServer(parameters)
  const { url, port } = await server.listen(0, '127.0.0.1')
  let closing: Promise<void> | undefined
  return {
    ...server,
    url,
    port,
    counts: server.bridge.metrics.counts,
    close: () => {
      closing ??= server.close()
      return closing
    },
  }
}
