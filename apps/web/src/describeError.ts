import { ClientClosedError, RequestTimeoutError } from '@pairlink/client'
import { ModalClosedError, SessionError, SessionRejectedError, walkError } from '@pairlink/protocol'
import {
  BlockNotFoundError,
  ChainDisconnectedError,
  DisconnectedError,
  HttpRequestError,
  UnauthorizedError,
  UnsupportedMethodError,
  UserRejectedRequestError,
} from '@pairlink/provider'
import { ChainMismatchError, InsufficientFundsError, InvalidAddressError } from 'viem'
import { t } from './i18n/i18n.js'

type ErrorLike = {
  cause?: unknown
  code?: unknown
  data?: unknown
  details?: unknown
  message?: unknown
  shortMessage?: unknown
}

/** Whether the error, or one it wraps however deep (viem wraps the provider's twice), passes `fn`. */
export function hasError(error: unknown, fn: (error: ErrorLike) => boolean): boolean {
  return walkError(error, (e) => typeof e === 'object' && e !== null && fn(e as ErrorLike)) !== null
}

/** What the person was doing when an error happened; the same code reads differently per action. */
export type ErrorContext = 'connect' | 'request' | 'switchChain' | 'payment' | 'read'

/** EIP-3085/3326: the wallet does not know the chain asked for. */
const UNRECOGNIZED_CHAIN = 4902

/** JSON-RPC: the wallet (or node) failed while handling the request. */
const INTERNAL_ERROR = -32603

/**
 * The plain-language message shown for an error of the client, the provider or viem, in the page's language (the
 * errors themselves keep their byte-exact v1 texts, such as `User close QRCode Modal`). Codes decide (EIP-1193
 * numbers, Pairlink `ERR_*` strings), found anywhere in the `cause` chain; never class names, which another copy
 * of a package does not share, nor the wallet's own wording, which differs from wallet to wallet.
 *
 * @example
 * describeError(new ModalClosedError('User close QRCode Modal'), 'connect') // 'You closed the QR window…'
 */
export function describeError(error: unknown, context: ErrorContext = 'request'): string {
  const has = (fn: (e: ErrorLike) => boolean) => hasError(error, fn)
  const coded = (code: number | string) => has((e) => e.code === code)
  // The node's and the wallet's errors reach the app rebuilt from JSON, without `details`; the provider's own
  // HTTP and block-polling failures carry one, so a node's -32603 or -32001 is not taken for an outage.
  const provider = (code: number) => has((e) => e.code === code && typeof e.details === 'string')
  // viem's errors carry no code; viem is the app's own dependency, so its classes are the app's classes.
  const viem = (Class: abstract new (...args: never[]) => unknown) => has((e) => e instanceof Class)
  const named = (name: string) =>
    has((e) => typeof e.data === 'object' && e.data !== null && (e.data as { name?: unknown }).name === name)

  // The relay refused the site for good (WalletConnect's close 3000): what the operator must fix, by the relay's reason.
  const refusal = walkError(error, (e) => (e as ErrorLike | null)?.code === RELAY_REFUSED) as
    | (ErrorLike & { kind?: unknown })
    | null
  if (refusal) return describeRefusal(refusal.kind)
  if (coded(ModalClosedError.code)) {
    return t('error_modal_closed')
  }
  if (coded(SessionRejectedError.code) || (context === 'connect' && coded(UserRejectedRequestError.code))) {
    return t('error_connection_rejected')
  }
  if (coded(RequestTimeoutError.code)) return t('error_timeout')
  // Over WalletConnect v2 the provider answers 4902 itself, naming the chains the wallet approved when it connected.
  if (
    has(
      (e) =>
        e.code === UNRECOGNIZED_CHAIN &&
        Array.isArray((e.data as { approvedChains?: unknown })?.approvedChains),
    )
  )
    return t('error_chain_not_approved')
  // viem's SwitchChainError is a 4902 too, and wagmi's connectors (Pairlink's among them) wrap every failed switch in
  // it: only a 4902 with no other code beneath it is the wallet's own "unknown chain"; a wrapped one lets the code
  // beneath it decide (a refusal, a disconnected session, …).
  if (has((e) => e.code === UNRECOGNIZED_CHAIN && !hasError(e.cause, (inner) => inner.code !== undefined)))
    return t('error_chain_unknown')
  if (
    context === 'switchChain' &&
    (coded(UserRejectedRequestError.code) || coded(ChainDisconnectedError.code))
  ) {
    return t('error_switch_refused')
  }
  if (coded(UserRejectedRequestError.code)) return t('error_request_rejected')
  if (coded(DisconnectedError.code) || coded(SessionError.code)) {
    return t('error_disconnected')
  }
  if (coded(ChainDisconnectedError.code) || named(ChainMismatchError.name)) {
    return t('error_wrong_chain')
  }
  if (coded(UnauthorizedError.code)) return t('error_unauthorized')
  if (coded(UnsupportedMethodError.code)) return t('error_unsupported')
  // viem classifies the node's insufficient-funds answers (the wording every node shares); a wallet may also name
  // the cause in its error's `data.name`, which survives the bridge where a class does not.
  if (viem(InsufficientFundsError) || named(InsufficientFundsError.name)) return t('insufficient_funds')
  if (viem(InvalidAddressError)) return t('error_invalid_address')
  // The provider's HTTP failure carries `status` too; viem's wrapper of a wallet's -32603 also has `details`.
  if (has((e) => e.code === HttpRequestError.code && typeof e.details === 'string' && 'status' in e)) {
    return t('error_rpc_unreachable')
  }
  if (provider(BlockNotFoundError.code)) return t('error_block_not_found')
  if (coded(ClientClosedError.code)) return t('error_client_closed')
  // The v2 relay (this server's WalletConnect v2 service) did not answer, or its socket dropped, during a call.
  if (isRelayUnreachable(error)) return t('error_relay_unreachable')
  const first = typeof error === 'object' && error !== null ? (error as ErrorLike) : undefined
  const text = (
    typeof first?.shortMessage === 'string' ? first.shortMessage : String(first?.message ?? error)
  ).split('\n')[0] as string
  // A failed read is the node's failure, said once as such (the banner shows it as is, never wrapped).
  if (context === 'read') return t('error_rpc_failed', { reason: text.replace(/\.$/, '') })
  // A wallet's own failure (not a refusal): say it was the wallet, in its words, rather than viem's generic one.
  if (context === 'payment' && coded(INTERNAL_ERROR)) {
    const details = walkError(error, (e) => typeof (e as ErrorLike)?.details === 'string') as ErrorLike | null
    return t('error_payment_failed', { reason: String(details?.details ?? text).replace(/\.$/, '') })
  }
  return t('error_other', { reason: text })
}

/**
 * Whether the error says only that the v2 relay could not be reached (it did not answer, or its socket dropped): the
 * outage the page's standing warning already tells, so it is not told twice (usePairlink, StatusBanner).
 *
 * @example
 * isRelayUnreachable(error) // true for ERR_RELAY_TIMEOUT / ERR_RELAY_CLOSED anywhere in the cause chain
 */
export function isRelayUnreachable(error: unknown): boolean {
  return hasError(error, (e) => e.code === 'ERR_RELAY_TIMEOUT' || e.code === 'ERR_RELAY_CLOSED')
}

/** The code of the v2 client's `RelayRefusedError` (`@pairlink/client/v2`): the relay refused the site. */
export const RELAY_REFUSED = 'ERR_RELAY_REFUSED'

/**
 * What the person and the site's operator are told when the relay refuses the site, by the refusal's `kind`: the
 * project id missing or unknown, or this page's origin not on the project's allow-list.
 *
 * @example
 * describeRefusal('origin', 'https://dapp.example') // "WalletConnect's relay does not accept this site's address (https://dapp.example). …"
 */
export function describeRefusal(kind: unknown, origin: string = globalThis.location?.origin ?? ''): string {
  if (kind === 'project-missing' || kind === 'project-unknown') return t('refused_project')
  if (kind === 'origin') return t('refused_origin', { origin: origin ? ` (${origin})` : '' })
  return t('refused_other')
}

/**
 * The message for a session that ended: the person pressed Disconnect here (`'here'`) or in another tab of the app
 * (`'tab'`, which shares the session), or the wallet ended it.
 *
 * @example
 * describeDisconnect('wallet') // 'The wallet disconnected. …'
 */
export function describeDisconnect(by: 'here' | 'tab' | 'wallet'): string {
  return t(by === 'here' ? 'disconnected_here' : by === 'tab' ? 'disconnected_tab' : 'disconnected_wallet')
}
