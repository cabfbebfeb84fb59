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

/** localStorage key of the v1 session layout. */
export const SESSION_STORAGE_KEY = 'walletconnect'

/** localStorage key of the wallet the person last chose in the modal. */
export const DEEPLINK_CHOICE_STORAGE_KEY = 'WALLETCONNECT_DEEPLINK_CHOICE'

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
