import { waitFor } from '@pairlink/test-kit'
import { createMemoryStorage, type SessionStorage } from '../src/storage.js'
import {
  approve,
  connect,
  createSignClient,
  getSessions,
  pair,
  request,
  respond,
  type SignClient,
  type SignClientEvents,
} from '../src/v2/index.js'
import { dappMetadata, events, grant, methods } from './sdk.js'

/** The next payload of `event`. */
export const next = <event extends keyof SignClientEvents>(client: SignClient, event: event) =>
  new Promise<SignClientEvents[event]>((resolve) => client.once(event, resolve))

/** The wallet answers each request with its first param. */
export const echo = (wallet: SignClient) =>
  wallet.on('session_request', ({ id, topic, params }) => {
    const [value] = params.request.params as [string]
    respond(wallet, { topic, response: { id, jsonrpc: '2.0', result: value } }).catch(() => {})
  })

/** A `personal_sign` request whose answer, from {@link echo}, is `value`. */
export const call = (dapp: SignClient, topic: string, value: string) =>
  request<string>(dapp, { topic, chainId: 'eip155:1', request: { method: 'personal_sign', params: [value] } })

/**
 * Our own v2 clients on `relayUrl` with a short reconnect backoff (a restarted relay is back within ms) and the
 * `defaults` given; `close()` closes every one made since the last call.
 */
export function createPeers(
  relayUrl: () => string,
  defaults: Partial<Parameters<typeof createSignClient>[0]> = {},
) {
  const clients: SignClient[] = []
  const create = (
    metadata: typeof dappMetadata,
    storage: SessionStorage = createMemoryStorage(),
    options: Partial<Parameters<typeof createSignClient>[0]> = {},
  ) => {
    const client = createSignClient({
      relayUrl: relayUrl(),
      metadata,
      storage,
      reconnect: { minDelay: 20, maxDelay: 200 },
      ...defaults,
      ...options,
    })
    clients.push(client)
    return client
  }
  /** Our dapp proposes eip155:1, our wallet pairs and approves; `answers` installs {@link echo}. */
  const paired = async (
    storages: { dapp?: SessionStorage; wallet?: SessionStorage } = {},
    answers = true,
  ) => {
    const dapp = create(dappMetadata, storages.dapp)
    const wallet = create({ ...dappMetadata, name: 'Pairlink wallet' }, storages.wallet)
    const { uri, approval } = await connect(dapp, {
      optionalNamespaces: { eip155: { chains: ['eip155:1'], methods, events } },
    })
    wallet.on('session_proposal', ({ id }) => {
      approve(wallet, { id, namespaces: grant() }).catch(() => {})
    })
    await pair(wallet, { uri: uri as string })
    const session = await approval()
    await waitFor(() => getSessions(wallet)[0]?.acknowledged, { message: 'wallet acknowledged' })
    if (answers) echo(wallet)
    return { dapp, wallet, session }
  }
  const close = async () => {
    for (const client of clients.splice(0)) await client.close()
  }
  return { create, paired, close }
}
