import { PROVIDER_ERROR_CODES, RpcError } from '@pairlink/protocol'
import { numberToHex } from 'viem'
import type { LocalAccount } from 'viem/accounts'
import { WALLET_METHODS } from '../../../apps/wallet/src/core/namespaces.js'
import { answerRequest } from '../../../apps/wallet/src/core/sessionMethods.js'
import { SIGNING_REQUEST_METHODS } from '../../../apps/wallet/src/core/signingMethods.js'

/** Parameters of {@link createInjectedProvider}. */
export type CreateInjectedProviderParameters = {
  account: LocalAccount
  /** The chains the wallet knows, each with the node it reads from and broadcasts to. */
  chains: Readonly<Record<number, string>>
  /** The chain it starts on, one of `chains`. */
  chainId: number
  /**
   * Where it keeps the site's access and its chain across page loads, as an extension keeps them in its own storage.
   * @default nothing kept: every load starts disconnected
   */
  store?: InjectedWalletStore | undefined
}

/** What the wallet keeps for the site between loads. */
type InjectedWalletStore = {
  read(): { connected: boolean; chainId: number } | undefined
  write(state: { connected: boolean; chainId: number }): void
}

/** What a test can do to the wallet from the page, as the person would in its window. */
type InjectedControls = {
  /** Switches to another account: `accountsChanged` when connected. */
  setAccount: (account: LocalAccount) => void
  /** Takes the site's access back, as the wallet's own "disconnect this site": `accountsChanged` with none. */
  disconnect: () => void
  /** Whether the person refuses the next requests for accounts (4001), as when they press Cancel. */
  setRefusing: (refusing: boolean) => void
  /** The methods the provider was asked, in order. */
  readonly requests: string[]
}

/** An EIP-1193 provider and its test controls. */
export type InjectedProvider = {
  provider: {
    request: (args: { method: string; params?: unknown }) => Promise<unknown>
    on: (event: string, listener: (payload: never) => void) => void
    removeListener: (event: string, listener: (payload: never) => void) => void
  }
  controls: InjectedControls
}

/**
 * Methods the wallet answers itself, from its state or its key (the reference wallet's: `eth_accounts` and
 * `eth_requestAccounts` are answered before this is asked); anything else is a read it forwards to the node.
 */
const OWN_METHODS = new Set<string>(WALLET_METHODS)

/**
 * An EIP-1193 provider as a browser wallet injects it, built on the reference wallet's own core
 * (`apps/wallet/src/core`: `answerRequest`, which signs with viem and broadcasts to the node): it approves every
 * request, as a person clicking Approve would. `eth_requestAccounts` connects (`connect`, `accountsChanged`); before
 * that `eth_accounts` is empty and signing fails with 4100; `wallet_switchEthereumChain` moves to a known chain
 * (`chainChanged`) and fails with 4902 for another; reads go to the current chain's node.
 *
 * @example
 * const { provider } = createInjectedProvider({ account: getDevAccount(0), chains: { 31337: anvilUrl }, chainId: 31337 })
 */
export function createInjectedProvider({
  account: first,
  chains,
  chainId: start,
  store,
}: CreateInjectedProviderParameters): InjectedProvider {
  let account = first
  const kept = store?.read()
  let chainId = kept?.chainId ?? start
  let connected = kept?.connected ?? false
  const keep = () => store?.write({ connected, chainId })
  let refusing = false
  const requests: string[] = []
  const listeners = new Map<string, Set<(payload: never) => void>>()
  const emit = (event: string, payload: unknown) => {
    for (const listener of listeners.get(event) ?? []) (listener as (payload: unknown) => void)(payload)
  }

  const switchChain = async (next: number) => {
    if (!chains[next]) {
      throw new RpcError(`Unrecognized chain ID "${numberToHex(next)}". Try adding the chain first.`, {
        code: 4902,
      })
    }
    if (next === chainId) return
    chainId = next
    keep()
    emit('chainChanged', numberToHex(next))
  }

  const revoke = () => {
    if (!connected) return null
    connected = false
    keep()
    emit('accountsChanged', [])
    return null
  }

  const request = async ({ method, params }: { method: string; params?: unknown }) => {
    requests.push(method)
    // One wallet for every tab, as an extension is: what another tab's page changed holds here too.
    const shared = store?.read()
    if (shared) ({ connected, chainId } = shared)
    if (method === 'eth_accounts') return connected ? [account.address] : []
    if (method === 'eth_requestAccounts') {
      if (refusing) throw new RpcError('User rejected the request.', { code: 4001 })
      if (!connected) {
        connected = true
        keep()
        emit('connect', { chainId: numberToHex(chainId) })
        emit('accountsChanged', [account.address])
      }
      return [account.address]
    }
    // EIP-2255, as wallets that let a site give its access back answer it.
    if (method === 'wallet_revokePermissions') return revoke()
    const rpcUrl = chains[chainId] as string
    if (!OWN_METHODS.has(method)) return forward(rpcUrl, method, params)
    if (!connected && (SIGNING_REQUEST_METHODS as readonly string[]).includes(method)) {
      throw new RpcError('The wallet is not connected to this site: call eth_requestAccounts first', {
        code: PROVIDER_ERROR_CODES.UNAUTHORIZED,
      })
    }
    const answer = await answerRequest(
      { method, params: (params ?? []) as unknown[] },
      { account, rpcUrl, chainId, switchChain },
    )
    return answer.result
  }

  return {
    // EIP-6963 advises freezing what is handed to the page, so no other script can rewire it.
    provider: Object.freeze({
      request,
      on: (event: string, listener: (payload: never) => void) => {
        listeners.set(event, (listeners.get(event) ?? new Set()).add(listener))
      },
      removeListener: (event: string, listener: (payload: never) => void) => {
        listeners.get(event)?.delete(listener)
      },
    }),
    controls: {
      setAccount: (next) => {
        account = next
        if (connected) emit('accountsChanged', [next.address])
      },
      disconnect: () => void revoke(),
      setRefusing: (next) => {
        refusing = next
      },
      requests,
    },
  }
}

/** A read the wallet does not answer itself, sent to its node as is; the node's error comes back with its code. */
async function forward(rpcUrl: string, method: string, params: unknown): Promise<unknown> {
  const response = await fetch(rpcUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params: params ?? [] }),
  })
  const body = (await response.json()) as {
    result?: unknown
    error?: { code: number; message: string; data?: unknown }
  }
  if (body.error) throw new RpcError(body.error.message, { code: body.error.code, data: body.error.data })
  return body.result
}
