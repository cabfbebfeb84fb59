import { createRequire } from 'node:module'
import type WalletConnectExports from '@walletconnect/client'
import { privateKeyToAccount } from 'viem/accounts'
import { expect } from 'vitest'

// Two of anvil's well-known dev keys: real signatures, no secrets.
export const account = privateKeyToAccount(
  '0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80',
)
export const otherAccount = privateKeyToAccount(
  '0x59c6995e998f97a5a0044966f0945389dc9c86ae88c7d0bcda4c8a8b96f3d3a2',
)
export const FAKE_TX_HASH = `0x${'ab'.repeat(32)}`

// A CommonJS module that sets `exports.default`: Node's ESM default import is `module.exports` (as its types say),
// while some loaders hand out the class; requiring it and taking `.default` is the same everywhere.
const WalletConnect = (createRequire(import.meta.url)('@walletconnect/client') as typeof WalletConnectExports)
  .default

const dappMeta = { name: 'Dapp', description: 'Dapp', url: 'https://dapp.example', icons: [] }
const walletMeta = { name: 'Wallet', description: 'Wallet', url: 'https://wallet.example', icons: [] }

type Connector = InstanceType<typeof WalletConnect>
type Payload = { id: number; method: string; params: unknown[] }

const live = new Set<Connector>()

/** Resolves with the payload of the next `event` (1.8.0 callbacks are `(error, payload)`). */
export function nextEvent<T = Payload>(connector: Connector, event: string, timeoutMs = 5_000): Promise<T> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no ${event} within ${timeoutMs} ms`)), timeoutMs)
    connector.on(event, (error: Error | null, payload: T) => {
      clearTimeout(timer)
      if (error) reject(error)
      else resolve(payload)
    })
  })
}

/** The published 1.8.0 client as a dapp. */
export async function createDapp(bridge: string) {
  const dapp = new WalletConnect({ bridge, clientMeta: dappMeta })
  live.add(dapp)
  await dapp.createSession({ chainId: 1 })
  return dapp
}

/** The published 1.8.0 client as a wallet: signs personal_sign for real, answers eth_sendTransaction with a fake hash. */
export function createWallet(options: { uri: string; bridge?: string } | { session: Connector['session'] }) {
  const init =
    'uri' in options
      ? {
          uri: options.bridge
            ? options.uri.replace(/bridge=[^&]+/, `bridge=${encodeURIComponent(options.bridge)}`)
            : options.uri,
          clientMeta: walletMeta,
        }
      : { session: options.session, clientMeta: walletMeta }
  const wallet = new WalletConnect(init)
  live.add(wallet)
  wallet.on('call_request', async (error: Error | null, payload: Payload) => {
    if (error) return
    if (payload.method === 'personal_sign') {
      const [message] = payload.params as [`0x${string}`, string]
      const result = await account.signMessage({ message: { raw: message } })
      wallet.approveRequest({ id: payload.id, result })
    } else if (payload.method === 'eth_sendTransaction')
      wallet.approveRequest({ id: payload.id, result: FAKE_TX_HASH })
    else wallet.rejectRequest({ id: payload.id, error: { message: 'Unsupported' } })
  })
  return wallet
}

/** Pairs a dapp and a wallet (the wallet may use another bridge node) and waits for `connect` on both sides. */
export async function pair(dappBridge: string, walletBridge = dappBridge) {
  const dapp = await createDapp(dappBridge)
  const wallet = createWallet({ uri: dapp.uri, bridge: walletBridge })
  const request = await nextEvent<{ params: [{ peerMeta: { name: string } }] }>(wallet, 'session_request')
  expect(request.params[0].peerMeta.name).toBe('Dapp')
  const connected = nextEvent<{ params: [{ accounts: string[]; chainId: number }] }>(dapp, 'connect')
  wallet.approveSession({ accounts: [account.address], chainId: 1 })
  const { params } = await connected
  expect(params[0].accounts).toEqual([account.address])
  return { dapp, wallet }
}

/** Closes every connector created here so the test process can exit. */
export function closeConnectors() {
  for (const connector of live) connector.transportClose()
  live.clear()
}
