import * as module from '@walletconnect/client'

// biome-ignore lint/suspicious/noExplicitAny: v1 payloads are untyped; the tests read them field by field
type V1Payload = any

type Callback = (error: Error | null, payload: V1Payload) => void

/** The parts of `@walletconnect/client@1.8.0` the interop tests drive. */
export type V1Connector = {
  connected: boolean
  accounts: string[]
  chainId: number
  peerId: string
  peerMeta: unknown
  session: Record<string, unknown>
  on(event: string, callback: Callback): void
  createSession(options?: { chainId?: number }): Promise<void>
  approveSession(parameters: { chainId: number; accounts: string[] }): void
  rejectSession(parameters?: { message?: string }): void
  approveRequest(parameters: { id: number; result: unknown }): void
  rejectRequest(parameters: { id: number; error: { code?: number; message: string } }): void
  updateSession(parameters: { chainId: number; accounts: string[] }): void
  killSession(parameters?: { message: string }): Promise<void>
  signPersonalMessage(params: unknown[]): Promise<string>
  signTypedData(params: unknown[]): Promise<string>
  sendTransaction(tx: object): Promise<string>
  sendCustomRequest(request: object, options?: object): Promise<unknown>
  transportClose(): void
}

type V1Options = { bridge?: string; uri?: string; session?: unknown; clientMeta: object }

// The CJS build sits behind one or two `default`s depending on the loader.
const loaded = module as unknown as { default: { default?: unknown } }
const WalletConnect = (loaded.default.default ?? loaded.default) as new (options: V1Options) => V1Connector

/** A new v1 connector. */
export function createV1(options: V1Options): V1Connector {
  return new WalletConnect(options)
}

/** The next `(error, payload)` of a v1 event. */
export function v1Event(
  connector: V1Connector,
  event: string,
): Promise<{ error: Error | null; payload: V1Payload }> {
  return new Promise((resolve) => {
    let done = false
    connector.on(event, (error, payload) => {
      if (done) return
      done = true
      resolve({ error, payload })
    })
  })
}
