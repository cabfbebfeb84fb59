import type { ModalAdapter } from '@pairlink/client'

/** A browser wallet (EIP-6963) as the modal hands it over: its announced `info` and its EIP-1193 `provider`. */
export type ChosenWallet = {
  info: { uuid: string; name: string; icon: string; rdns: string }
  provider: { request(args: { method: string; params?: unknown }): Promise<unknown> }
}

/** What the connector uses of `@pairlink/modal` (a seam: the module is loaded when the connector is first used). */
export type ModalModule = {
  open(uri: string, onUserClose?: () => void, options?: Record<string, unknown>): void
  close(): void
  setStatus?(status: 'ready' | 'unreachable'): void
  showError?(message: string, onUserClose?: () => void, options?: Record<string, unknown>): void
}

/** Parameters of {@link createModalAdapter}. */
export type CreateModalAdapterParameters = {
  /** Told each pairing URI (wagmi's `display_uri` message), modal or not. */
  onUri: (uri: string) => void
  /** The WalletConnect project id: the modal's wallet list then comes from WalletConnect's explorer. */
  projectId?: string | undefined
  /** The app's `qrModalOptions`, for a refusal shown before any pairing opened the modal. */
  modalOptions?: Record<string, unknown> | undefined
}

/** Return type of {@link createModalAdapter}. */
export type ModalAdapterState = {
  adapter: ModalAdapter
  /** Sets the modal module once it is loaded (`undefined`: the app draws its own QR code). */
  setModal: (modal: ModalModule | undefined) => void
  /** The browser wallet the person chose in the modal since the last {@link ModalAdapterState.reset}. */
  chosen: () => ChosenWallet | undefined
  /** Forgets the choice: a new connect starts. */
  reset: () => void
  /** Says in the modal that the relay refused the site (the modal's own words, in its language). */
  showRefusal: () => void
}

/**
 * The client's modal adapter over Pairlink's modal, as `pairlink()` opens it: every URI goes to wagmi as
 * `display_uri`; the modal gets the connector's `projectId` (its wallet list from WalletConnect's explorer, unless
 * `qrModalOptions` names a `registryUrl`) and offers the page's browser wallets (EIP-6963). Choosing one closes the
 * modal and ends the pairing as a close would, remembering the wallet: the connector then rejects with
 * `InjectedWalletChosenError`.
 *
 * @example
 * const { adapter, setModal, chosen } = createModalAdapter({ onUri: (uri) => emit(uri), projectId })
 */
export function createModalAdapter(parameters: CreateModalAdapterParameters): ModalAdapterState {
  let modal: ModalModule | undefined
  let chosen: ChosenWallet | undefined
  const base = {
    ...(parameters.projectId ? { projectId: parameters.projectId } : {}),
    ...parameters.modalOptions,
  }
  let options: Record<string, unknown> = base
  const adapter: ModalAdapter = {
    open(uri, onUserClose, given) {
      parameters.onUri(uri)
      options = {
        ...base,
        ...(given as Record<string, unknown> | undefined),
        onInjected: (wallet: ChosenWallet) => {
          chosen = wallet
          // The pairing no wallet will answer now ends as the person closing the modal would end it.
          onUserClose()
        },
      }
      modal?.open(uri, onUserClose, options)
    },
    close: () => modal?.close(),
    setStatus: (status) => modal?.setStatus?.(status),
  }
  return {
    adapter,
    setModal: (next) => {
      modal = next
    },
    chosen: () => chosen,
    reset: () => {
      chosen = undefined
    },
    showRefusal: () => modal?.showError?.('', undefined, options),
  }
}
