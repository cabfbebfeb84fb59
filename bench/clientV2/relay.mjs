// The bench's v2 relay in a process of its own: the real @pairlink/bridge (memory store) on a free loopback port.
// Prints its ws:// URL on the first stdout line, then serves until its parent kills it or goes away.
import { createBridgeServer } from '@pairlink/bridge'

// No rate limits: the bench's long-lived sessions send far more than a person does.
const server = createBridgeServer({ relay: { maxRequestsPerSecond: 0, maxRequestsPerSecondPerIp: 0 } })
const { url } = await server.listen(0, '127.0.0.1')
console.log(url.replace(/^http/, 'ws'))
process.on('disconnect', () => process.exit(0))
