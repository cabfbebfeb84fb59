import type { IncomingMessage } from 'node:http'
import { MAX_HTTP_BODY_BYTES } from './constants.js'

/**
 * A request's body as text, refused past {@link MAX_HTTP_BODY_BYTES} (the server's `requestTimeout` bounds how long
 * it may take).
 * @throws {RangeError} when the body is too large.
 */
export function readBody(request: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = []
    let size = 0
    request.on('data', (chunk: Buffer) => {
      size += chunk.length
      if (size > MAX_HTTP_BODY_BYTES) {
        reject(new RangeError('Request body too large'))
        return
      }
      chunks.push(chunk)
    })
    request.on('end', () => resolve(Buffer.concat(chunks).toString()))
    request.on('error', reject)
  })
}
