import { BaseError } from '@pairlink/protocol'

/** A request the peer did not answer within its `timeout`. The message names the method, never its params. */
export class RequestTimeoutError extends BaseError {
  static override code = 'ERR_REQUEST_TIMEOUT'
  override name = 'RequestTimeoutError'
  constructor(method: string, timeout: number) {
    super(`Request ${method} timed out after ${timeout} ms`)
  }
}

/** A pending request or connect of a client that `close()` shut down. */
export class ClientClosedError extends BaseError {
  static override code = 'ERR_CLIENT_CLOSED'
  override name = 'ClientClosedError'
  constructor() {
    super('Client closed')
  }
}

/** `createClient` options that cannot make a client; the message is the v1 text where v1 has one. */
export class InvalidClientOptionsError extends BaseError {
  static override code = 'ERR_CLIENT_OPTIONS_INVALID'
  override name = 'InvalidClientOptionsError'
}
