import type { SessionStorage } from '@pairlink/client'
import { WALLETCONNECT_RELAY_URL } from '@pairlink/protocol/v2'
import type { CreateV2ClientParameters, Provider } from '@pairlink/provider'
import { ChainNotConfiguredError, createConnector, extractRpcUrls, ProviderNotFoundError } from '@wagmi/core'
import { type Address, getAddress, numberToHex, SwitchChainError, UserRejectedRequestError } from 'viem'
import { InjectedWalletChosenError } from './errors.js'
import { createModalAdapter, type ModalModule } from './modalAdapter.js'

/** What the wallet is told about the app (WalletConnect's `metadata`, v1's `clientMeta`): the provider's own type. */
export type PairlinkMetadata = NonNullable<CreateV2ClientParameters['metadata']>

/** Parameters of {@link pairlink}, in wagmi's and WalletConnect's words where they mean the same. */
export type PairlinkParameters = {
  /**
   * The WalletConnect v2 relay (`ws:`/`wss:`): Pairlink's server, or any other v2 relay.
   * @default WalletConnect's relay (`wss://relay.walletconnect.org`) with a `projectId`, else the page's own server
   */
  relayUrl?: string | undefined
  /**
   * A WalletConnect project id (dashboard.reown.com): without `relayUrl` the sessions go through WalletConnect's
   * relay, where phone wallets listen, and the modal lists WalletConnect's explorer's wallets.
   */
  projectId?: string | undefined
  /** The app as the wallet shows it. @default the page's title and origin in browsers */
  metadata?: PairlinkMetadata | undefined
  /**
   * Whether `connect` opens Pairlink's QR-code modal; either way the URI is emitted as the `message` event
   * `{ type: 'display_uri', data: uri }`, for an app that draws its own.
   * @default true
   */
  showQrModal?: boolean | undefined
  /** Options handed to the modal's `open` (language, theme, registry URL, …; see `@pairlink/modal`). */
  qrModalOptions?: Record<string, unknown> | undefined
  /** A WalletConnect v1 bridge (`https:`): with it and no `relayUrl`, sessions are v1. */
  bridge?: string | undefined
  /** The generation of the sessions the connector makes. @default 2, or 1 with `bridge` and no `relayUrl` */
  version?: 1 | 2 | undefined
  /** Where the session is kept across reloads. @default localStorage in browsers, memory elsewhere */
  storage?: SessionStorage | undefined
  /**
   * A Pairlink provider the app made itself (its own wallet time-out, polling, chains), used instead of one made
   * from the options above: the connector then follows that provider's session.
   */
  provider?: Provider | undefined
}

type Properties = {
  /** Listens to the provider's session events (wagmi's `change` and `disconnect`), once. */
  attach(provider: Provider): void
  /** Stops listening to them. */
  detach(): void
}

// Listeners attached to the provider while a session is live, so they can be taken off again.
type Attached = {
  provider: Provider
  accountsChanged: (accounts: string[]) => void
  chainChanged: (chainId: string) => void
  disconnect: () => void
}

const isRejection = (error: unknown) => (error as { code?: unknown } | undefined)?.code === 4001

/** The relay refused the site (`ERR_RELAY_REFUSED`, on the error or any `cause`): no project id, an unknown one, … */
const isRefusal = (error: unknown): boolean => {
  for (let e = error, depth = 0; typeof e === 'object' && e !== null && depth < 8; depth++) {
    if ((e as { code?: unknown }).code === 'ERR_RELAY_REFUSED') return true
    e = (e as { cause?: unknown }).cause
  }
  return false
}

/**
 * A wagmi connector over Pairlink: pairs with any WalletConnect v2 wallet through `relayUrl` (or a v1 wallet through
 * `bridge`), showing Pairlink's QR-code modal unless `showQrModal: false`. The provider and the modal are imported
 * the first time the connector is used, so importing it touches no `window` (server renders, Node).
 *
 * @example
 * const config = createConfig({
 *   chains: [mainnet],
 *   connectors: [pairlink({ relayUrl: 'wss://pairlink.example', metadata })],
 *   transports: { [mainnet.id]: http() },
 * })
 */
export function pairlink(parameters: PairlinkParameters = {}) {
  const showQrModal = parameters.showQrModal ?? true
  const relayUrl = resolveRelayUrl(parameters)
  let provider: Promise<Provider> | undefined
  let attached: Attached | undefined

  return createConnector<Provider, Properties>((config) => {
    // The modal module is loaded with the provider when the connector shows its own modal.
    const modal = createModalAdapter({
      onUri: (uri) => config.emitter.emit('message', { type: 'display_uri', data: uri }),
      projectId: parameters.projectId,
      modalOptions: parameters.qrModalOptions,
    })

    const create = async (): Promise<Provider> => {
      const [{ createProvider }, modalModule] = await Promise.all([
        import('@pairlink/provider'),
        showQrModal ? import('@pairlink/modal') : undefined,
      ])
      modal.setModal(modalModule as ModalModule | undefined)
      const chain = config.chains[0]
      // The app's chains and their RPC URLs, as its transports say: reads go there, and a v2 proposal asks for them.
      const rpc = Object.fromEntries(
        config.chains.flatMap((one) => {
          const [url] = extractRpcUrls({ chain: one, transports: config.transports })
          return url ? [[one.id, url]] : []
        }),
      )
      const version = parameters.version ?? (parameters.bridge && !relayUrl ? 1 : 2)
      return createProvider({
        version,
        bridge: parameters.bridge,
        relayUrl,
        projectId: parameters.projectId,
        modal: modal.adapter,
        clientParameters: {
          clientMeta: parameters.metadata,
          modalOptions: parameters.qrModalOptions,
          storage: parameters.storage,
        },
        rpc,
        chainId: chain.id,
      })
    }

    return {
      id: 'pairlink',
      name: 'Pairlink',
      type: pairlink.type,

      async connect({ chainId, isReconnecting, withCapabilities } = {}) {
        const current = await this.getProvider()
        // A reload's reconnect restores a kept session; it never opens the modal.
        if (isReconnecting && !(await this.isAuthorized())) throw new ProviderNotFoundError()
        let accounts: readonly Address[]
        modal.reset()
        try {
          accounts = (await current.enable()).map((account) => getAddress(account))
        } catch (error) {
          const chosen = modal.chosen()
          // A browser wallet chosen in the modal: the app connects it with its own connector (see the README).
          if (chosen) throw new InjectedWalletChosenError(chosen, { cause: error })
          if (isRefusal(error)) modal.showRefusal()
          throw isRejection(error) ? new UserRejectedRequestError(error as Error) : error
        }
        this.attach(current)
        let id = current.chainId
        if (chainId !== undefined && chainId !== id) {
          // The session stands on its own chain when the wallet will not switch; wagmi shows the chain it reports.
          id =
            (await this.switchChain?.({ chainId }).then(
              (chain) => chain.id,
              (error: unknown) => {
                if (error instanceof UserRejectedRequestError) throw error
                return id
              },
            )) ?? id
        }
        return {
          accounts: (withCapabilities
            ? accounts.map((address) => ({ address, capabilities: {} }))
            : accounts) as never,
          chainId: id,
        }
      },

      async disconnect() {
        const current = await this.getProvider()
        this.detach()
        await current.disconnect()
      },

      async getAccounts() {
        const current = await this.getProvider()
        await current.client.ready
        return current.accounts.map((account) => getAddress(account))
      },

      async getChainId() {
        const current = await this.getProvider()
        await current.client.ready
        return current.chainId
      },

      getProvider() {
        provider ??= parameters.provider ? Promise.resolve(parameters.provider) : create()
        return provider
      },

      async isAuthorized() {
        try {
          const current = await this.getProvider()
          await current.client.ready
          return current.client.connected && current.accounts.length > 0
        } catch {
          return false
        }
      },

      async switchChain({ chainId }) {
        const chain = config.chains.find((one) => one.id === chainId)
        if (!chain) throw new SwitchChainError(new ChainNotConfiguredError())
        const current = await this.getProvider()
        try {
          await current.request({
            method: 'wallet_switchEthereumChain',
            params: [{ chainId: numberToHex(chainId) }],
          })
        } catch (error) {
          if (isRejection(error)) throw new UserRejectedRequestError(error as Error)
          throw new SwitchChainError(error as Error)
        }
        // The provider's chainChanged (one per actual change, before the switch resolves) is wagmi's `change` once
        // attached; a second one here made apps see each switch twice.
        if (!attached && current.chainId === chainId) config.emitter.emit('change', { chainId })
        return chain
      },

      onAccountsChanged(accounts) {
        if (accounts.length === 0) this.onDisconnect()
        else config.emitter.emit('change', { accounts: accounts.map((account) => getAddress(account)) })
      },

      onChainChanged(chainId) {
        config.emitter.emit('change', { chainId: Number(chainId) })
      },

      onDisconnect() {
        // Once: the provider says both accountsChanged([]) and disconnect when a session ends.
        if (!attached) return
        this.detach()
        config.emitter.emit('disconnect')
      },

      attach(current) {
        if (attached) return
        attached = {
          provider: current,
          accountsChanged: (accounts) => this.onAccountsChanged(accounts),
          chainChanged: (chainId) => this.onChainChanged(chainId),
          disconnect: () => this.onDisconnect(),
        }
        current.on('accountsChanged', attached.accountsChanged)
        current.on('chainChanged', attached.chainChanged)
        current.on('disconnect', attached.disconnect)
      },

      detach() {
        if (!attached) return
        const { provider: current, accountsChanged, chainChanged, disconnect } = attached
        attached = undefined
        current.removeListener('accountsChanged', accountsChanged)
        current.removeListener('chainChanged', chainChanged)
        current.removeListener('disconnect', disconnect)
      },
    }
  })
}

/**
 * The relay the connector pairs through: `relayUrl` as given; else, as in WalletConnect's own connector, a `projectId`
 * alone means WalletConnect's relay (`wss://relay.walletconnect.org`); else none (the provider's default, the page's
 * own server).
 */
export function resolveRelayUrl(
  parameters: Pick<PairlinkParameters, 'relayUrl' | 'projectId'>,
): string | undefined {
  return parameters.relayUrl ?? (parameters.projectId ? WALLETCONNECT_RELAY_URL : undefined)
}

/** The connector's `type`, as wagmi's own connectors carry one. */
pairlink.type = 'pairlink' as const
