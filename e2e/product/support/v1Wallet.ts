import { createRequire } from 'node:module'
import { createWalletClient, type Hex, http } from 'viem'
import { devAccount } from './accounts.js'

// @walletconnect/client@1.8.0 is CommonJS with an `exports.default`; in Node it reaches the bridge through `ws`.
const require = createRequire(import.meta.url)
type Connector = {
  on(
    event: string,
    callback: (error: Error | null, payload: { id: number; method: string; params: unknown[] }) => void,
  ): void
  approveSession(session: { chainId: number; accounts: string[] }): void
  rejectSession(error?: { message?: string }): void
  approveRequest(response: { id: number; result: unknown }): void
  rejectRequest(response: { id: number; error: { code?: number; message: string } }): void
  killSession(): Promise<void>
  transportClose(): void
  connected: boolean
  peerMeta: { name?: string } | null
}
const WalletConnect = (require('@walletconnect/client') as { default: new (options: object) => Connector })
  .default

/** Parameters of {@link startV1Wallet}. */
export type V1WalletParameters = {
  uri: string
  rpcUrl: string
  chainId: number
  /** Reject the session instead of approving it. */
  rejectSession?: boolean
  /** Reject every call request instead of answering it. */
  rejectRequests?: boolean
}

/**
 * The published v1 client (`@walletconnect/client@1.8.0`) running as a wallet in Node: it approves (or rejects)
 * the session with dev account 0, and answers `personal_sign`, `eth_signTypedData_v4` and `eth_sendTransaction`
 * with viem, as a wallet app built on v1 would.
 */
export function startV1Wallet(parameters: V1WalletParameters) {
  const account = devAccount(0)
  const chain = {
    id: parameters.chainId,
    name: 'dev',
    nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
    rpcUrls: { default: { http: [parameters.rpcUrl] } },
  }
  const signer = createWalletClient({ account, chain, transport: http(parameters.rpcUrl) })
  const requests: string[] = []
  const connector = new WalletConnect({
    uri: parameters.uri,
    clientMeta: {
      name: 'v1 Node wallet',
      description: 'WalletConnect v1 client 1.8.0',
      url: 'https://example.org',
      icons: [],
    },
  })
  const sessionRequested = new Promise<string>((resolve) => {
    connector.on('session_request', (error, payload) => {
      if (error) throw error
      const meta = (payload.params[0] as { peerMeta?: { name?: string } } | undefined)?.peerMeta
      if (parameters.rejectSession) connector.rejectSession()
      else connector.approveSession({ chainId: parameters.chainId, accounts: [account.address] })
      resolve(meta?.name ?? '')
    })
  })
  connector.on('call_request', (error, payload) => {
    if (error) throw error
    requests.push(payload.method)
    if (parameters.rejectRequests) {
      connector.rejectRequest({ id: payload.id, error: { message: 'User rejected' } })
      return
    }
    answer(payload.method, payload.params).then(
      (result) => connector.approveRequest({ id: payload.id, result }),
      (cause: Error) => connector.rejectRequest({ id: payload.id, error: { message: cause.message } }),
    )
  })

  async function answer(method: string, params: unknown[]): Promise<unknown> {
    if (method === 'personal_sign') return account.signMessage({ message: { raw: params[0] as Hex } })
    if (method === 'eth_signTypedData_v4') {
      // biome-ignore lint/suspicious/noExplicitAny: the typed data arrives as JSON text of any shape
      return account.signTypedData(JSON.parse(params[1] as string) as any)
    }
    if (method === 'eth_sendTransaction') {
      const tx = params[0] as { to: Hex; value?: Hex; data?: Hex }
      return signer.sendTransaction({ to: tx.to, value: BigInt(tx.value ?? '0x0'), data: tx.data })
    }
    throw new Error(`Method not supported: ${method}`)
  }

  return {
    connector,
    address: account.address,
    /** The dapp's name from its session request, once it arrived. */
    sessionRequested,
    /** Methods of the call requests received, in order. */
    requests,
    close: () => connector.transportClose(),
  }
}
