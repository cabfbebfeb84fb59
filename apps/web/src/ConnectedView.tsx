import { type ReactNode, useEffect, useState } from 'react'
import type { ConnectedProps } from './Connected.js'
import { t } from './i18n/i18n.js'

type ConnectedModule = typeof import('./Connected.js')

let loaded: ConnectedModule | undefined
let loading: Promise<ConnectedModule> | undefined

/**
 * Starts loading the connected view's chunk (viem, the cards), once; a failed load is tried again on the next call.
 *
 * @example
 * onClick={() => { void preloadConnected(); void connect() }}
 */
export function preloadConnected(): Promise<ConnectedModule> {
  loading ??= import('./Connected.js').then(
    (module) => {
      loaded = module
      return module
    },
    (error: unknown) => {
      loading = undefined
      throw error
    },
  )
  return loading
}

/** Props of {@link ConnectedView}: the connected view's, and the banner shown while it loads. */
export type ConnectedViewProps = ConnectedProps & { banner: ReactNode }

/**
 * The connected view, loaded on demand: the banner and "Loading…" until its chunk is there (at once when Connect
 * already fetched it), then the account panel and the cards. A chunk that cannot be loaded (the network dropped, a
 * deploy replaced it) says so in plain words instead of leaving a blank page.
 */
export function ConnectedView({ banner, ...props }: ConnectedViewProps) {
  const [module, setModule] = useState(loaded)
  const [failed, setFailed] = useState(false)
  useEffect(() => {
    if (module) return
    let live = true
    preloadConnected().then(
      (loadedModule) => live && setModule(loadedModule),
      () => live && setFailed(true),
    )
    return () => {
      live = false
    }
  }, [module])
  if (module) return <module.Connected {...props} />
  return (
    <main>
      {banner}
      {failed ? (
        <p className="banner error" role="alert" data-testid="view-error">
          {t('view_error')}
        </p>
      ) : (
        <p className="muted center" role="status">
          {t('loading')}
        </p>
      )}
    </main>
  )
}
