import type { Provider } from '@pairlink/provider'
import { createPublicClient, createWalletClient, custom, type PublicClient, type WalletClient } from 'viem'

/** The viem clients over a Pairlink provider: reads, and the wallet's signing and sending. */
export type ViemClients = { publicClient: PublicClient; walletClient: WalletClient }

const made = new WeakMap<Provider, ViemClients>()

/**
 * The viem clients over `provider`, made once per provider (React may render the connected view more than once).
 * Only the connected view imports this module, so viem's actions load with it, not with the connect screen.
 *
 * @example
 * const { publicClient, walletClient } = viemClients(pairlink.provider)
 */
export function viemClients(provider: Provider): ViemClients {
  let clients = made.get(provider)
  if (!clients) {
    clients = {
      publicClient: createPublicClient({ transport: custom(provider) }),
      // No retries: a retried signing request would ask the person twice.
      walletClient: createWalletClient({ transport: custom(provider, { retryCount: 0 }) }),
    }
    made.set(provider, clients)
  }
  return clients
}
