/** Wallets per page in the modal's wallet list. */
export const WALLETS_PER_PAGE = 12

/** How long the modal shows `Copied to clipboard!`, in milliseconds. */
export const COPIED_NOTIFICATION_MS = 1_200

/** Duration of the modal's fade-out, in milliseconds. */
export const MODAL_FADE_MS = 300

/** Default wallet registry URL of v1 (API v2 shape `{ listings, count }`). */
export const DEFAULT_REGISTRY_URL = 'https://registry.walletconnect.com/api/v2/wallets'

/**
 * How long before a v2 pairing URI's `expiryTimestamp` the modal treats the code as expired, in milliseconds: a
 * code scanned in its last seconds would reach the wallet dead (the time to aim the camera, and the phone's clock
 * running ahead of the computer's), so the countdown ends this much earlier and the fresh code comes in time.
 */
export const EXPIRY_MARGIN_MS = 20_000
