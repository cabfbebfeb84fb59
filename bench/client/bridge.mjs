// The bench's relay in a process of its own: the real @pairlink/bridge (memory backend) on a free loopback port.
// Prints its URL on the first stdout line, then serves until its parent kills it or goes away.
import { createBridgeServer } from '@pairlink/bridge'

// No per-socket rate limit: the bench's two long-lived sessions send far more than a person's 100 frames/s.
const server = createBridgeServer({ maxMessagesPerSecond: 0 })
const { url } = await server.listen(0, '127.0.0.1')
console.log(url)
process.on('disconnect', () => process.exit(0))
