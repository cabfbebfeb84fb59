import type { RequestArguments } from './httpConnection.js'

/** A JSON-RPC request as pre-EIP-1193 dapps (web3.js 0.x/1.x, ethers v4/v5) pass it. */
export type LegacyPayload = {
  id?: number | string | undefined
  jsonrpc?: string | undefined
} & RequestArguments

/** A JSON-RPC response as the legacy callbacks get it. */
export type LegacyResponse = {
  id: number | string | undefined
  jsonrpc: '2.0'
  result?: unknown
  error?: { code: number; message: string; data?: unknown }
}

type Callback<response> = (error: Error | null, response?: response) => void

/** The older entry points v1's web3-provider offered (reference §7.1), kept for dapps that still call them. */
export type LegacySend = {
  /** `send(method, params?)` and `send(payload)` resolve with the result; `send(payload, callback)` is `sendAsync`. */
  send(method: string, params?: readonly unknown[]): Promise<unknown>
  send(payload: LegacyPayload): Promise<unknown>
  send(payload: LegacyPayload | LegacyPayload[], callback: Callback<LegacyResponse | LegacyResponse[]>): void
  /** Callback style; an array is a batch, answered with an array of responses (errors in place). */
  sendAsync(payload: LegacyPayload, callback: Callback<LegacyResponse>): void
  sendAsync(payload: LegacyPayload[], callback: Callback<LegacyResponse[]>): void
}

/**
 * `send` and `sendAsync` on top of an EIP-1193 `request`.
 *
 * @example
 * const { send, sendAsync } = createLegacySend(provider.request)
 */
export function createLegacySend(request: (args: RequestArguments) => Promise<unknown>): LegacySend {
  const respond = (payload: LegacyPayload): Promise<[Error | null, LegacyResponse]> =>
    request(payload).then(
      (result) => [null, { id: payload.id, jsonrpc: '2.0', result }],
      (error) => {
        const { code = -32603, message = String(error), data } = error ?? {}
        const object = data === undefined ? { code, message } : { code, message, data }
        return [error, { id: payload.id, jsonrpc: '2.0', error: object }]
      },
    )

  function sendAsync(payload: LegacyPayload | LegacyPayload[], callback: Callback<never>): void {
    if (Array.isArray(payload)) {
      void Promise.all(payload.map(respond)).then((answers) =>
        callback(null, answers.map((a) => a[1]) as never),
      )
    } else void respond(payload).then(([error, response]) => callback(error, response as never))
  }

  return {
    send(first: string | LegacyPayload | LegacyPayload[], second?: unknown) {
      if (typeof first === 'string')
        return request({ method: first, params: second as unknown[] | undefined })
      if (typeof second === 'function') return sendAsync(first, second as Callback<never>)
      return request(first as LegacyPayload)
    },
    sendAsync,
  } as LegacySend
}
