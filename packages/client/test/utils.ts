import {
  type Client,
  type ClientEvents,
  type CreateClientParameters,
  createClient,
  dappActions,
  type ModalAdapter,
  walletActions,
} from '@pairlink/client'
import { decrypt, parseUri } from '@pairlink/protocol'

export const dappMeta = { description: 'Dapp', url: 'https://dapp.example', icons: [], name: 'Dapp' }
export const walletMeta = {
  description: 'Wallet',
  url: 'https://wallet.example',
  icons: ['https://wallet.example/i.png'],
  name: 'Wallet',
}
export const account = '0x9b2055d370f73ec7d8a03e965129118dc8f5bf83'

/**
 * A modal adapter that records what it was asked to show (URI, options, bridge statuses); `userClose()` plays the
 * person closing it.
 */
export function createTestModal() {
  let onUserClose: (() => void) | undefined
  let resolveUri: (uri: string) => void = () => {}
  const modal = {
    opened: new Promise<string>((resolve) => {
      resolveUri = resolve
    }),
    closed: 0,
    options: undefined as unknown,
    statuses: [] as string[],
    open(uri: string, onClose: () => void, options?: unknown) {
      onUserClose = onClose
      modal.options = options
      resolveUri(uri)
    },
    close() {
      modal.closed++
    },
    setStatus(status: 'ready' | 'unreachable') {
      modal.statuses.push(status)
    },
    userClose() {
      onUserClose?.()
    },
  } satisfies ModalAdapter & Record<string, unknown>
  return modal
}

/** The next payload of `event`. */
export function next<event extends keyof ClientEvents>(
  client: Pick<Client, 'once'>,
  event: event,
): Promise<ClientEvents[event]> {
  return new Promise((resolve) => client.once(event, resolve))
}

/** A connected pair of our dapp and our wallet on `bridge`. */
export async function pair(
  bridge: string,
  options: {
    dapp?: Partial<CreateClientParameters>
    wallet?: Partial<CreateClientParameters>
    /** Both sides' `WebSocket` (a recorder's, to see their frames). */
    WebSocket?: CreateClientParameters['WebSocket']
  } = {},
) {
  const modal = createTestModal()
  const { WebSocket } = options
  const dapp = createClient({
    bridge,
    clientMeta: dappMeta,
    modal,
    storage: false,
    WebSocket,
    ...options.dapp,
  }).extend(dappActions)
  const connected = dapp.connect({ chainId: 1 })
  const uri = await modal.opened
  const wallet = createClient({
    uri,
    clientMeta: walletMeta,
    storage: false,
    WebSocket,
    ...options.wallet,
  }).extend(walletActions)
  await next(wallet, 'session_request')
  await wallet.approveSession({ chainId: 1, accounts: [account] })
  await connected
  return { dapp, wallet, uri, modal }
}

/** A frame a client sent, its envelope decrypted with `key` when it is one. */
export type DecodedFrame = {
  socket: number
  topic: string
  type: string
  silent: boolean
  // biome-ignore lint/suspicious/noExplicitAny: tests read decrypted payloads field by field
  payload: any
}

/** Decodes frames recorded at the clients' seam; envelopes that `key` cannot open keep `payload` undefined. */
export async function decodeFrames(
  frames: { socket: number; raw: string }[],
  key: string,
): Promise<DecodedFrame[]> {
  const decoded: DecodedFrame[] = []
  for (const { socket, raw } of frames) {
    const frame = JSON.parse(raw)
    let payload: unknown
    if (frame.type === 'pub') payload = await decrypt(frame.payload, key).catch(() => undefined)
    decoded.push({ socket, topic: frame.topic, type: frame.type, silent: frame.silent, payload })
  }
  return decoded
}

/** The symmetric key of a `wc:` URI. */
export function keyOf(uri: string): string {
  return parseUri(uri).key
}

/** A dapp client: `createClient(parameters).extend(dappActions)`. */
export function createDapp(parameters: CreateClientParameters) {
  return createClient(parameters).extend(dappActions)
}

/** A wallet client: `createClient(parameters).extend(walletActions)`. */
export function createWallet(parameters: CreateClientParameters) {
  return createClient(parameters).extend(walletActions)
}
