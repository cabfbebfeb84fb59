/** Wallets per page in the modal's wallet list. */
export const WALLETS_PER_PAGE = 12

/** How long the modal shows `Copied to clipboard!`, in milliseconds. */
export const COPIED_NOTIFICATION_MS = 1_200

/** Duration of the modal's fade-out, in milliseconds. */
export const MODAL_FADE_MS = 300

/**
 * How many wallets the modal asks WalletConnect's explorer for (`entries`, one page): the list shows them 12 at a
 * time, with a search box; the explorer orders them most used first.
 */
export const EXPLORER_ENTRIES = 100

/**
 * What the modal tells WalletConnect's explorer it is (`st` and `sv`, the SDK type and version the explorer counts
 * requests by). The version is the package's own, pinned against its package.json by a test.
 */
export const EXPLORER_SDK = { type: 'pairlink', version: 'pairlink-modal-0.1.0' } as const

/**
 * How long before a v2 pairing URI's `expiryTimestamp` the modal treats the code as expired, in milliseconds: a
 * code scanned in its last seconds would reach the wallet dead (the time to aim the camera, and the phone's clock
 * running ahead of the computer's), so the countdown ends this much earlier and the fresh code comes in time.
 */
export const EXPIRY_MARGIN_MS = 20_000
