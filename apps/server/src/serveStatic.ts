import { createReadStream } from 'node:fs'
import { stat } from 'node:fs/promises'
import type { IncomingMessage, ServerResponse } from 'node:http'
import { extname, join, normalize, resolve, sep } from 'node:path'

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.webmanifest': 'application/manifest+json',
  '.txt': 'text/plain; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
}

/**
 * Serves a built single-page app from `root` under `mount` (`/` or `/wallet`): files as they are, with long caching
 * for Vite's hashed assets, and `index.html` for every other path so client-side routes survive a reload.
 * Resolves `false` when `root` has no `index.html` (the app is not built).
 */
export async function serveStatic(
  request: IncomingMessage,
  response: ServerResponse,
  root: string,
  pathname: string,
): Promise<boolean> {
  const base = resolve(root)
  // Decoded, normalised and checked to stay inside root: `..` and encoded separators never escape it.
  let relative: string
  try {
    relative = normalize(decodeURIComponent(pathname)).replace(/^([/\\])+/, '')
  } catch {
    relative = ''
  }
  let file = resolve(join(base, relative))
  if (file !== base && !file.startsWith(base + sep)) file = base
  let info = await stat(file).catch(() => undefined)
  if (!info?.isFile()) {
    file = join(base, 'index.html')
    info = await stat(file).catch(() => undefined)
    if (!info?.isFile()) return false
  }
  const hashed = file.includes(`${sep}assets${sep}`)
  response.writeHead(200, {
    'content-type': TYPES[extname(file)] ?? 'application/octet-stream',
    'content-length': info.size,
    'cache-control': hashed ? 'public, max-age=31536000, immutable' : 'no-cache',
    'x-content-type-options': 'nosniff',
  })
  if (request.method === 'HEAD') response.end()
  else createReadStream(file).pipe(response)
  return true
}
