import { createClient, type DappClient, dappActions } from '@pairlink/client'
import { ModalClosedError, SessionRejectedError, V1_ERRORS } from '@pairlink/protocol'
import type { CreateProviderParameters } from './createProvider.js'
import { InvalidProviderParametersError, UserRejectedRequestError } from './errors.js'
import { createV2Client } from './v2Client.js'

/** The part of a `@pairlink/client` (dapp role) the provider uses. A client restored from storage fits too. */
export type ProviderClient = Pick<
  DappClient,
  'connected' | 'accounts' | 'chainId' | 'ready' | 'on' | 'connect' | 'request' | 'killSession'
> & {
  /** The wallet's RPC URL for the session's chain, when the client knows it (v1's approval `rpcUrl`). */
  readonly rpcUrl?: string | undefined
  /**
   * Present over WalletConnect v2: `wallet_switchEthereumChain` switches among the session's chains here, without a
   * message to the wallet, and rejects with 4902 for a chain outside them. v1 sends the switch to the wallet.
   */
  switchChain?(chainId: number): Promise<void>
}

/**
 * The provider's client: the one given, else a new one — v1 for `bridge`, v2 for `relayUrl`, `projectId` or `version: 2` (with
 * `modal` and `clientParameters`). Throws {@link InvalidProviderParametersError} for v1 without a `bridge`.
 *
 * @example
 * const client = getClient({ bridge: 'https://bridge.example', modal })
 */
export function getClient(parameters: CreateProviderParameters): ProviderClient {
  if (parameters.client) return parameters.client
  // A project id alone means WalletConnect's network, which speaks v2 only.
  const version =
    parameters.version ?? ((parameters.relayUrl || parameters.projectId) && !parameters.bridge ? 2 : 1)
  if (version === 2) {
    const { clientMeta, modalOptions, storage, WebSocket, reconnect } = parameters.clientParameters ?? {}
    return createV2Client({
      relayUrl: parameters.relayUrl,
      projectId: parameters.projectId,
      metadata: clientMeta ?? undefined,
      modal: parameters.modal,
      modalOptions: modalOptions as Record<string, unknown> | undefined,
      storage: storage || undefined,
      WebSocket,
      reconnect,
      // The chains the app reads are the ones worth asking for: the wallet may grant some, switching among them.
      chains: Object.keys(parameters.rpc ?? {}).map(Number),
    })
  }
  if (!parameters.bridge) {
    throw new InvalidProviderParametersError('Missing one of the required parameters: client / bridge')
  }
  return createClient({
    ...parameters.clientParameters,
    bridge: parameters.bridge,
    modal: parameters.modal,
  }).extend(dappActions)
}

/**
 * Connects a client (the modal opens) and resolves with the session; the person closing the modal or the wallet
 * rejecting gives 4001 (`User closed modal`, v1's provider text, or the wallet's message).
 *
 * @example
 * const { chainId, accounts } = await connectSession(client, 1)
 */
export async function connectSession(
  client: ProviderClient,
  chainId: number,
): Promise<{ chainId: number; accounts: string[] }> {
  let off = () => {}
  try {
    return await new Promise((resolve, reject) => {
      // A wallet's rejection may only show as `disconnect` (v1 leaves connect() pending): settle on that too.
      off = client.on('disconnect', ({ message }) => reject(new UserRejectedRequestError(message)))
      client.connect({ chainId }).then(resolve, reject)
    })
  } catch (error) {
    if (error instanceof ModalClosedError)
      throw new UserRejectedRequestError(V1_ERRORS.PROVIDER_USER_CLOSED_MODAL, { cause: error })
    if (error instanceof SessionRejectedError)
      throw new UserRejectedRequestError(error.message, { cause: error })
    throw error
  } finally {
    off()
  }
}
