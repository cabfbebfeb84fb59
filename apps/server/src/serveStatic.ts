import { existsSync } from 'node:fs'
import { sep } from 'node:path'
import { serveStatic as honoStatic } from '@hono/node-server/serve-static'
import type { Context, MiddlewareHandler } from 'hono'
import type { AppEnv } from './api/http.js'

/**
 * Serves a built single-page app from `root` under `mount` (`''` or `/wallet`): files as they are (their `.br` or
 * `.gz` variant when the browser takes it and the build made one), long caching for Vite's hashed assets, a 404 for
 * a missing one (a tab left open across a deploy asks for the old chunks: a script load error, not a page served as
 * a script), and `index.html` for every other path so client-side routes survive a reload. Paths with `..` or encoded separators
 * never leave `root`: they get the app's page. Falls through (`next`) when `root` has no `index.html` (not built).
 */
export function serveApp(root: string, mount: string): MiddlewareHandler<AppEnv> {
  const cache = (path: string, c: Context) => {
    const hashed = path.includes(`${sep}assets${sep}`)
    c.header('cache-control', hashed ? 'public, max-age=31536000, immutable' : 'no-cache')
  }
  // Made once the app is built: hono's serveStatic complains on the console about a missing root.
  const make = () => ({
    files: honoStatic<AppEnv>({
      root,
      precompressed: true,
      rewriteRequestPath: (path) => path.slice(mount.length) || '/',
      onFound: cache,
    }),
    page: honoStatic<AppEnv>({ root, path: 'index.html', precompressed: true, onFound: cache }),
  })
  let served: ReturnType<typeof make> | undefined
  return async (c, next) => {
    if (!served && !existsSync(root)) return next()
    served ??= make()
    const answer = await served.files(c, async () => {})
    if (answer) return answer
    if (c.req.path.startsWith(`${mount}/assets/`)) {
      c.header('cache-control', 'no-store')
      return c.text('Not found', 404)
    }
    return served.page(c, next)
  }
}
