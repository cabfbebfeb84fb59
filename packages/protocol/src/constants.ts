/** Protocol version carried in every `wc:` URI of this protocol. */
export const PROTOCOL_VERSION = 1

/** URI scheme of a pairing URI. */
export const URI_PROTOCOL = 'wc'

/** Symmetric key size in bytes (AES-256 and HMAC-SHA256 share the key). */
export const KEY_LENGTH = 32

/** AES-CBC initialisation vector size in bytes, fresh for every message. */
export const IV_LENGTH = 16

/** HMAC-SHA256 tag size in bytes. */
export const HMAC_LENGTH = 32

/** Time-out of one JSON-RPC request over HTTP, in milliseconds. */
export const HTTP_TIMEOUT_MS = 60_000

/** Default interval between two `eth_getBlockByNumber("latest")` polls, in milliseconds. */
export const BLOCK_POLLING_INTERVAL_MS = 4_000

/** How many times a block fetch that finds nothing is retried before `Could not find block`. */
export const BLOCK_FETCH_RETRIES = 5

/** Pause between two retries of an empty block fetch, in milliseconds. */
export const BLOCK_FETCH_RETRY_DELAY_MS = 1_000

/** Wallets per page in the modal's wallet list. */
export const WALLETS_PER_PAGE = 12

/** How long the modal shows `Copied to clipboard!`, in milliseconds. */
export const COPIED_NOTIFICATION_MS = 1_200

/** Duration of the modal's fade-out, in milliseconds. */
export const MODAL_FADE_MS = 300

/** localStorage key of the v1 session layout. */
export const SESSION_STORAGE_KEY = 'walletconnect'

/** localStorage key of the wallet the person last chose in the modal. */
export const DEEPLINK_CHOICE_STORAGE_KEY = 'WALLETCONNECT_DEEPLINK_CHOICE'

/** Default wallet registry URL of v1 (API v2 shape `{ listings, count }`). */
export const DEFAULT_REGISTRY_URL = 'https://registry.walletconnect.com/api/v2/wallets'

/**
 * Methods that need the person's approval in the wallet. Their requests are published with `silent: false`
 * so the bridge triggers the wallet's push webhook (reference §4.8, the 1.8.0 list).
 */
export const SIGNING_METHODS = [
  'eth_sendTransaction',
  'eth_signTransaction',
  'eth_sign',
  'eth_signTypedData',
  'eth_signTypedData_v1',
  'eth_signTypedData_v2',
  'eth_signTypedData_v3',
  'eth_signTypedData_v4',
  'personal_sign',
  'wallet_addEthereumChain',
  'wallet_switchEthereumChain',
  'wallet_getPermissions',
  'wallet_requestPermissions',
  'wallet_registerOnboarding',
  'wallet_watchAsset',
  'wallet_scanQRCode',
] as const

/** Methods answered from session state rather than by the wallet (reference §4.8). */
export const STATE_METHODS = ['eth_accounts', 'eth_chainId', 'net_version'] as const

/**
 * Client events the dispatcher never reroutes to `call_request` (reference §4.4).
 * Any name starting with `wc_` is reserved too.
 */
export const RESERVED_EVENTS = [
  'session_request',
  'session_update',
  'exchange_key',
  'connect',
  'disconnect',
  'display_uri',
  'modal_closed',
  'transport_open',
  'transport_close',
  'transport_error',
] as const
