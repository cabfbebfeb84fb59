/** Time-out of one JSON-RPC request over HTTP, in milliseconds. */
export const HTTP_TIMEOUT_MS = 60_000

/** Default interval between two `eth_getBlockByNumber("latest")` polls, in milliseconds. */
export const BLOCK_POLLING_INTERVAL_MS = 4_000

/** How many times a block fetch that finds nothing is retried before `Could not find block`. */
export const BLOCK_FETCH_RETRIES = 5

/** Pause between two retries of an empty block fetch, in milliseconds. */
export const BLOCK_FETCH_RETRY_DELAY_MS = 1_000
