import { createClient, type WalletClient, walletActions } from '@pairlink/client'
import { createWalletClient, type Hex, http } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { foundry } from 'viem/chains'

/** What a request is answered with; a thrown `{ code, message }` becomes the wallet's rejection. */
type Handler = (method: string, params: unknown[]) => Promise<unknown> | unknown

/**
 * Our client in the wallet role, as a person's wallet would act: it approves the session with the key's account,
 * signs with viem's `privateKeyToAccount`, and broadcasts transactions itself to the node over HTTP
 * (`eth_sendRawTransaction`). `reject` answers the next requests with a rejection instead.
 */
export function startTestWallet(parameters: {
  uri: string
  rpcUrl: string
  privateKey: Hex
  chainId?: number
}) {
  const account = privateKeyToAccount(parameters.privateKey)
  const chainId = parameters.chainId ?? foundry.id
  const node = createWalletClient({
    account,
    chain: { ...foundry, id: chainId },
    transport: http(parameters.rpcUrl),
  })
  const client: WalletClient = createClient({
    uri: parameters.uri,
    storage: false,
    clientMeta: { name: 'Test wallet', description: 'provider tests', url: 'http://127.0.0.1', icons: [] },
  }).extend(walletActions)
  const requests: { method: string; params: unknown[] }[] = []
  const state = {
    rejections: [] as { code?: number; message: string }[],
    override: undefined as Handler | undefined,
  }

  const sign: Handler = async (method, params) => {
    if (method === 'personal_sign') return account.signMessage({ message: { raw: params[0] as Hex } })
    if (method.startsWith('eth_signTypedData')) {
      const data = typeof params[1] === 'string' ? JSON.parse(params[1]) : params[1]
      const { EIP712Domain: _, ...types } = data.types
      return account.signTypedData({ ...data, types })
    }
    if (method === 'eth_sendTransaction') {
      const tx = params[0] as Record<string, Hex | undefined>
      const quantity = (value: Hex | undefined) => (value ? BigInt(value) : undefined)
      return node.sendTransaction({
        to: tx.to as Hex,
        value: quantity(tx.value),
        data: tx.data && tx.data !== '0x' ? tx.data : undefined,
        gas: quantity(tx.gas),
      })
    }
    throw { code: 4200, message: `Test wallet does not do ${method}` }
  }

  client.on('session_request', () => client.approveSession({ chainId, accounts: [account.address] }))
  client.on('call_request', async (request) => {
    const params = (request.params ?? []) as unknown[]
    requests.push({ method: request.method, params })
    const rejection = state.rejections.shift()
    if (rejection) {
      client.rejectRequest({ id: request.id, error: rejection })
      return
    }
    try {
      const result = await (state.override ?? sign)(request.method, params)
      client.approveRequest({ id: request.id, result: result ?? null })
    } catch (error) {
      const { code, message } = error as { code?: number; message?: string }
      client.rejectRequest({ id: request.id, error: { code, message: message ?? 'Failed' } })
    }
  })

  return {
    client,
    account,
    requests,
    /** The next request is rejected with this error. */
    reject(error: { code?: number; message: string }) {
      state.rejections.push(error)
    },
    /** Answers requests with `handler` instead of signing (for `wallet_*` methods). */
    handle(handler: Handler | undefined) {
      state.override = handler
    },
    close: () => client.close(),
  }
}
