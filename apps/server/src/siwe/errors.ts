import { BaseError } from '@pairlink/protocol'

/**
 * A text that is not an EIP-4361 message: it breaks the ABNF somewhere. `field` names the rule it breaks
 * (`address`, `statement`, `issued-at`, `order`, …); the message says how, never echoing the text itself.
 *
 * @example
 * try { parseSiweMessage(text) } catch (e) { if (e instanceof SiweMessageError) e.field }
 */
export class SiweMessageError extends BaseError {
  static override code = 'ERR_SIWE_MESSAGE_INVALID'
  override name = 'SiweMessageError'
  /** The ABNF rule (or `order`, `line`) the message breaks. */
  readonly field: string

  constructor(field: string, reason: string) {
    super(`Message is not an EIP-4361 sign-in message: ${reason}`, { details: `rule: ${field}` })
    this.field = field
  }
}
