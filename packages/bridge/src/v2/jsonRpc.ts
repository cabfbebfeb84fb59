/** JSON-RPC 2.0 error codes the relay answers with. */
export const RPC_PARSE_ERROR = -32700
export const RPC_INVALID_REQUEST = -32600
export const RPC_METHOD_NOT_FOUND = -32601
export const RPC_INVALID_PARAMS = -32602
/** Server-defined: a limit refused the call (rate, topics per socket, mailbox full). Transient; retry later. */
export const RPC_LIMIT_EXCEEDED = -32000

/**
 * The id exactly as the client wrote it, as JSON text: strings and safe integers re-serialise losslessly; a large
 * integer id (which `JSON.parse` rounded) is looked up in the frame's text so the answer matches byte for byte.
 */
export function rawId(frame: string, id: unknown): string {
  if (typeof id === 'number' && !Number.isSafeInteger(id)) {
    for (const match of frame.matchAll(/"id"\s*:\s*(-?\d[\d.eE+-]*)/g))
      if (match[1] !== undefined && Number(match[1]) === id) return match[1]
  }
  return JSON.stringify(id) ?? 'null'
}

/** A JSON-RPC result frame; `id` is JSON text from {@link rawId}. */
export function resultFrame(id: string, result: unknown): string {
  return `{"id":${id},"jsonrpc":"2.0","result":${JSON.stringify(result)}}`
}

/** A JSON-RPC error frame; `id` is JSON text from {@link rawId} (`null` when unknown). */
export function errorFrame(id: string, code: number, message: string): string {
  return `{"id":${id},"jsonrpc":"2.0","error":${JSON.stringify({ code, message })}}`
}
/** The relay's store failed (Redis away). Transient; the SDK retries. */
export const RPC_INTERNAL_ERROR = -32603
