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
