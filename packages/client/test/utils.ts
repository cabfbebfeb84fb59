import {
  type Client,
  type ClientEvents,
  type CreateClientParameters,
  createClient,
  type ModalAdapter,
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

/** A modal adapter that records what it was asked to show; `userClose()` plays the person closing it. */
export function createTestModal() {
  let onUserClose: (() => void) | undefined
  let resolveUri: (uri: string) => void = () => {}
  const modal = {
    opened: new Promise<string>((resolve) => {
      resolveUri = resolve
    }),
    closed: 0,
    options: undefined as unknown,
    open(uri: string, onClose: () => void, options?: unknown) {
      onUserClose = onClose
      modal.options = options
      resolveUri(uri)
    },
    close() {
      modal.closed++
    },
    userClose() {
      onUserClose?.()
    },
  } satisfies ModalAdapter & Record<string, unknown>
  return modal
}

/** The next payload of `event`. */
export function next<event extends keyof ClientEvents>(
  client: Client,
  event: event,
): Promise<ClientEvents[event]> {
  return new Promise((resolve) => client.once(event, resolve))
}

/** Polls until `check` holds (bounded). */
export async function until(check: () => boolean, timeout = 5000): Promise<void> {
  const end = Date.now() + timeout
  while (!check()) {
    if (Date.now() > end) throw new Error('until: timed out')
    await new Promise((resolve) => setTimeout(resolve, 10))
  }
}

/** A connected pair of our dapp and our wallet on `bridge`. */
export async function pair(
  bridge: string,
  options: { dapp?: Partial<CreateClientParameters>; wallet?: Partial<CreateClientParameters> } = {},
) {
  const modal = createTestModal()
  const dapp = createClient({ bridge, clientMeta: dappMeta, modal, storage: false, ...options.dapp })
  const connected = dapp.connect({ chainId: 1 })
  const uri = await modal.opened
  const wallet = createClient({ uri, clientMeta: walletMeta, storage: false, ...options.wallet })
  await next(wallet, 'session_request')
  await wallet.approveSession({ chainId: 1, accounts: [account] })
  await connected
  return { dapp, wallet, uri, modal }
}

/** A frame seen at the relay, its envelope decrypted with `key` when it is one. */
export type DecodedFrame = {
  socket: number
  topic: string
  type: string
  silent: boolean
  // biome-ignore lint/suspicious/noExplicitAny: tests read decrypted payloads field by field
  payload: any
}

/** Decodes the frames clients sent to the relay; envelopes that `key` cannot open keep `payload` undefined. */
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

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))
