import { type AuthenticateRequest, type ErrorResponse, SDK_ERRORS } from '@pairlink/client/v2'
import {
  type AuthPayload,
  createRecap,
  formatAuthMessage,
  getRecapMethods,
  readRecap,
} from '@pairlink/protocol/v2'
import { parseCaipChain, WALLET_METHODS } from './namespaces.js'

/** What a dapp's one-click auth request (`wc_sessionAuthenticate`) asks for, and what this wallet would sign. */
export type AuthRequestSummary = {
  /** The site that asks (`domain`) and the URI the person signs in to (`aud`). */
  domain: string
  aud: string
  /** Every CAIP-2 chain asked for. */
  chains: string[]
  /** The eip155 chains among them this wallet supports: one CACAO is signed for each, in this order. */
  evmChains: number[]
  /** The methods the dapp's ReCap asks to call (`personal_sign`, …). */
  methods: string[]
  /** Those this wallet implements: the ReCap it signs grants these alone. */
  grantedMethods: string[]
  /**
   * The payload signed: the dapp's, narrowed to the granted chains, its ReCap rewritten for the granted methods
   * (as WalletConnect's `populateAuthPayload` does), so each CACAO states only what the wallet grants.
   */
  payload: AuthPayload
  /** The exact SIWE (EIP-4361) text signed for each granted chain, as `address` on it. */
  messages: { chainId: number; text: string }[]
  /** When the dapp stops waiting (s since the epoch). */
  expiryTimestamp: number
  /** Why the wallet must refuse it, for the person: no chain it supports, no method it implements, … */
  refused?: string | undefined
}

/** A summary and, when the wallet cannot grant it, the spec's error for the dapp. */
export type SummarizeAuthRequestReturnType = {
  summary: AuthRequestSummary
  error?: ErrorResponse | undefined
}

/**
 * Reads a one-click auth request as this wallet answers it: the chains it supports (none → refused with 5100
 * `Unsupported chains. …`), the ReCap's eip155 methods narrowed to those it implements (some asked, none
 * implemented → refused with 5101), and the text it signs per chain for `address`
 * (`iss = did:pkh:eip155:<chain>:<address>`). Other resources are kept; a ReCap's other namespaces, which this
 * wallet cannot grant, are left out.
 *
 * @example
 * const { summary, error } = summarizeAuthRequest(params, { supportedChains: new Set([31337]), address })
 * summary.messages[0].text // 'dapp.test wants you to sign in with your Ethereum account:\n0x…'
 */
export function summarizeAuthRequest(
  request: Pick<AuthenticateRequest, 'authPayload' | 'expiryTimestamp'>,
  parameters: { supportedChains: ReadonlySet<number>; address: string },
): SummarizeAuthRequestReturnType {
  const asked = request.authPayload
  const chains = [...asked.chains]
  const evmChains = [
    ...new Set(
      chains
        .flatMap((chain) => parseCaipChain(chain) ?? [])
        .filter((id) => parameters.supportedChains.has(id)),
    ),
  ]
  const summary: AuthRequestSummary = {
    domain: asked.domain,
    aud: asked.aud,
    chains,
    evmChains,
    methods: [],
    grantedMethods: [],
    payload: { ...asked, chains: evmChains.map((id) => `eip155:${id}`) },
    messages: [],
    expiryTimestamp: request.expiryTimestamp,
  }
  const refuse = (error: ErrorResponse, refused: string) => ({ summary: { ...summary, refused }, error })
  let methods: string[]
  try {
    methods = readRecap(asked.resources) ? getRecapMethods(asked.resources) : []
  } catch (error) {
    return refuse(SDK_ERRORS.USER_REJECTED, `its ReCap is malformed (${describe(error)})`)
  }
  const implemented = new Set<string>(WALLET_METHODS)
  const grantedMethods = methods.filter((method) => implemented.has(method))
  Object.assign(summary, { methods, grantedMethods })
  if (evmChains.length === 0)
    return refuse(
      lacking(SDK_ERRORS.UNSUPPORTED_CHAINS, chains),
      `it asks only for ${plural('chain', chains)} ${chains.join(', ') || '(none)'}, which this wallet does not support`,
    )
  if (methods.length > 0 && grantedMethods.length === 0)
    return refuse(
      lacking(SDK_ERRORS.UNSUPPORTED_METHODS, methods),
      `it asks only for ${plural('method', methods)} ${methods.join(', ')}, which this wallet does not implement`,
    )
  // The ReCap, when there is one, is the last resource: it is replaced by one granting what the wallet implements.
  if (methods.length > 0)
    summary.payload.resources = [
      ...(asked.resources ?? []).slice(0, -1),
      createRecap('eip155', 'request', grantedMethods),
    ]
  try {
    const messages = evmChains.map((chainId) => ({
      chainId,
      text: formatAuthMessage({
        request: summary.payload,
        iss: `did:pkh:eip155:${chainId}:${parameters.address}`,
      }),
    }))
    return { summary: { ...summary, messages } }
  } catch (error) {
    // A field the EIP-4361 text cannot carry (a statement with a line break, …).
    return refuse(SDK_ERRORS.USER_REJECTED, `its sign-in message is malformed (${describe(error)})`)
  }
}

/** The spec's error naming what is missing (`Unsupported chains. eip155:999`), as the SDK words it. */
const lacking = (error: ErrorResponse, missing: string[]): ErrorResponse => ({
  code: error.code,
  message: `${error.message} ${missing.join(', ')}`,
})
const describe = (error: unknown) => (error instanceof Error ? error.message : String(error))
const plural = (word: string, items: readonly unknown[]) => (items.length === 1 ? word : `${word}s`)
