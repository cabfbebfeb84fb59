import { existsSync } from 'node:fs'
import { join, resolve } from 'node:path'

/** Where the server finds the apps it serves and keeps its data by default; see {@link resolveLayout}. */
export type ServerLayout = {
  /** Run from the repository (apps/server beside apps/web), not from an installed package. */
  monorepo: boolean
  /** The built web app. */
  webDir: string
  /** The built reference wallet page. */
  walletDir: string
  /** The data folder when `DATA_DIR` is unset. */
  dataDir: string
}

/**
 * The server's layout from its package folder. Installed (`npm install @pairlink/server`), the package carries the
 * built apps in `web/` and `wallet/` (copied in when it is packed) and keeps its data in `.pairlink/db` under the
 * working folder, never inside node_modules. Run from the repository, it serves apps/web/dist and apps/wallet/dist,
 * which every build refreshes (a `web/` left by a pack would be stale), and keeps its data at the repository root.
 *
 * @example
 * const layout = resolveLayout(fileURLToPath(new URL('..', import.meta.url)))
 */
export function resolveLayout(packageDir: string, cwd: string = process.cwd()): ServerLayout {
  const apps = join(packageDir, '..')
  const monorepo =
    existsSync(join(apps, 'web', 'package.json')) && existsSync(join(packageDir, 'src', 'main.ts'))
  if (monorepo)
    return {
      monorepo,
      webDir: join(apps, 'web', 'dist'),
      walletDir: join(apps, 'wallet', 'dist'),
      dataDir: join(apps, '..', '.pairlink', 'db'),
    }
  return {
    monorepo,
    webDir: join(packageDir, 'web'),
    walletDir: join(packageDir, 'wallet'),
    dataDir: resolve(cwd, '.pairlink', 'db'),
  }
}
