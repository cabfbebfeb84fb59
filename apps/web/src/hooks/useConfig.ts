import { useEffect, useState } from 'react'
import { t } from '../i18n/i18n.js'

/** What the server tells the app at `GET /api/config`. */
export type AppConfig = {
  /** The bridge URL for new sessions. */
  bridge: string
  /** The JSON-RPC endpoint for reads (the server's `/rpc` proxy). */
  rpcUrl: string
  /** The chain the app asks wallets for. */
  chainId: number
  /** The wallet registry the modal lists. */
  registryUrl: string
  /**
   * The WalletConnect v2 relay: WalletConnect's (`wss://relay.walletconnect.org`) when the server has a project id,
   * else this server's own (`ws(s):`); without it the app pairs over v1 only.
   */
  relayUrl?: string | undefined
  /** The relay's project id: the operator's WalletConnect project, or one this server's relay accepts. */
  projectId?: string | undefined
  /**
   * Whose relay that is: `'walletconnect'` — WalletConnect's network, where every phone wallet listens; `'pairlink'` —
   * this server's own, reached only by Pairlink Wallet and wallets set up for it. A server that does not say is the
   * latter.
   */
  relayNetwork: 'walletconnect' | 'pairlink'
}

/** The configuration, or why it could not be loaded. */
export type ConfigState =
  | { status: 'loading' }
  | { status: 'ready'; config: AppConfig }
  | { status: 'error'; message: string }

/** Checks the shape of `/api/config`'s answer so a broken server shows a message instead of a blank page. */
export function parseConfig(value: unknown): AppConfig {
  const v = value as Partial<AppConfig> | null
  if (
    !v ||
    typeof v.bridge !== 'string' ||
    typeof v.rpcUrl !== 'string' ||
    typeof v.chainId !== 'number' ||
    typeof v.registryUrl !== 'string'
  ) {
    throw new Error('The server sent an incomplete configuration')
  }
  const config: AppConfig = {
    bridge: v.bridge,
    rpcUrl: v.rpcUrl,
    chainId: v.chainId,
    registryUrl: v.registryUrl,
    relayNetwork: v.relayNetwork === 'walletconnect' ? 'walletconnect' : 'pairlink',
  }
  if (typeof v.relayUrl === 'string') config.relayUrl = v.relayUrl
  if (typeof v.projectId === 'string') config.projectId = v.projectId
  return config
}

/**
 * Loads the app's configuration from the server that served it.
 *
 * @example
 * const state = useConfig()
 * if (state.status === 'ready') createPairlink(state.config)
 */
export function useConfig(url = '/api/config'): ConfigState {
  const [state, setState] = useState<ConfigState>({ status: 'loading' })
  useEffect(() => {
    const controller = new AbortController()
    fetch(url, { signal: controller.signal })
      .then(async (response) => {
        if (!response.ok) throw new Error(`HTTP ${response.status}`)
        setState({ status: 'ready', config: parseConfig(await response.json()) })
      })
      .catch((error: unknown) => {
        if (controller.signal.aborted) return
        const reason = error instanceof Error ? error.message : String(error)
        setState({
          status: 'error',
          message: t('config_error', { reason }),
        })
      })
    return () => controller.abort()
  }, [url])
  return state
}
