import { createBridgeServer } from '@pairlink/bridge'
import pino from 'pino'

/** The real `@pairlink/bridge` (memory backend, quiet logger) on 127.0.0.1 and a free port. */
export async function startBridge() {
  const server = createBridgeServer({ logger: pino({ level: 'silent' }) })
  const { url, port } = await server.listen(0, '127.0.0.1')
  return { url, port, stop: () => server.close() }
}
