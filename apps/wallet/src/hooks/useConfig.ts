import { useEffect, useState } from 'react'

/** What the server tells its apps (`GET /api/config`). */
export type WalletConfig = {
  bridge: string
  rpcUrl: string
  chainId: number
  /**
   * The v2 relay to pair through: WalletConnect's when the server has a project id, else its own. `undefined`: this
   * page's own server.
   */
  relayUrl?: string | undefined
  /** The project id the relay checks. */
  projectId?: string | undefined
}

/** Return type of {@link useConfig}. */
export type UseConfigReturnType = { config: WalletConfig | undefined; error: string | undefined }

/**
 * Loads `/api/config` from this origin. On failure the wallet still works with the dev defaults (this origin's
 * `/rpc`, chain 31337) and says why.
 */
export function useConfig(): UseConfigReturnType {
  const [state, setState] = useState<UseConfigReturnType>({ config: undefined, error: undefined })
  useEffect(() => {
    const controller = new AbortController()
    const fallback: WalletConfig = {
      bridge: location.origin,
      rpcUrl: `${location.origin}/rpc`,
      chainId: 31337,
    }
    fetch('/api/config', { signal: controller.signal })
      .then(async (response) => {
        if (!response.ok) throw new Error(`HTTP ${response.status}`)
        const body = (await response.json()) as Partial<WalletConfig>
        setState({
          config: {
            bridge: typeof body.bridge === 'string' ? body.bridge : fallback.bridge,
            rpcUrl: typeof body.rpcUrl === 'string' ? body.rpcUrl : fallback.rpcUrl,
            chainId: typeof body.chainId === 'number' ? body.chainId : fallback.chainId,
            ...(typeof body.relayUrl === 'string' && /^wss?:\/\//.test(body.relayUrl)
              ? { relayUrl: body.relayUrl }
              : {}),
            ...(typeof body.projectId === 'string' ? { projectId: body.projectId } : {}),
          },
          error: undefined,
        })
      })
      .catch((error: unknown) => {
        if (controller.signal.aborted) return
        const reason = error instanceof Error ? error.message : String(error)
        setState({
          config: fallback,
          error: `Could not load the server settings (${reason}); using the dev defaults.`,
        })
      })
    return () => controller.abort()
  }, [])
  return state
}
