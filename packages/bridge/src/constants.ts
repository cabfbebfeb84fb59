/** Version reported by `GET /hello` and `GET /info`; kept equal to package.json by a test. */
export const BRIDGE_VERSION = '0.1.0'

/** Name reported by `GET /info`. */
export const BRIDGE_NAME = 'pairlink-bridge'

/** Description reported by `GET /info`. */
export const BRIDGE_DESCRIPTION = 'WalletConnect v1 compatible bridge server'

/** How long a message is queued for an offline peer, in seconds (24 h). */
export const DEFAULT_MESSAGE_TTL_SECONDS = 86_400

/** Largest text frame accepted, in bytes; a larger one closes the socket with {@link CLOSE_MESSAGE_TOO_BIG}. */
export const DEFAULT_MAX_FRAME_BYTES = 1_048_576

/** Topics one socket may subscribe. v1 clients use two (handshake topic and their client id). */
export const DEFAULT_MAX_TOPICS_PER_SOCKET = 32

/** Longest topic accepted. v1 topics are 36-character UUIDs. */
export const DEFAULT_MAX_TOPIC_LENGTH = 128

/** Open sockets allowed from one remote address. */
export const DEFAULT_MAX_CONNECTIONS_PER_IP = 256

/** Sustained frames per second one socket may send (token bucket refill rate); `0` disables the limit. */
export const DEFAULT_MAX_MESSAGES_PER_SECOND = 100

/** Frames one socket may send in a burst (token bucket size). */
export const DEFAULT_MESSAGE_BURST = 200

/**
 * Sustained frames per second all the sockets of one address may send together (token bucket refill rate); `0`
 * disables the limit. Ten well-behaved v1 sessions at the per-socket rate fit in it.
 */
export const DEFAULT_MAX_MESSAGES_PER_SECOND_PER_IP = 1_000

/** Frames all the sockets of one address may send in a burst (token bucket size). */
export const DEFAULT_MESSAGE_BURST_PER_IP = 2_000

/** Messages queued per topic for an offline peer; the oldest is dropped beyond it. */
export const DEFAULT_MAX_QUEUE_LENGTH = 100

/** Bytes queued per topic for an offline peer; the oldest messages are dropped beyond it. */
export const DEFAULT_MAX_QUEUED_BYTES = 8_388_608

/** Bytes one address may have queued over all topics; frames beyond it are refused and counted. */
export const DEFAULT_MAX_QUEUED_BYTES_PER_IP = 16_777_216

/** Bytes queued over all topics (memory and Redis); beyond it the address with the most queued bytes loses its oldest. */
export const DEFAULT_MAX_TOTAL_QUEUED_BYTES = 268_435_456

/** Bytes a socket may have waiting to be written before it is treated as dead (a reader that never reads). */
export const DEFAULT_MAX_BUFFERED_BYTES = 16_777_216

/** Bytes all the sockets of one address may have waiting to be written, together (v1 and v2). */
export const DEFAULT_MAX_BUFFERED_BYTES_PER_IP = 33_554_432

/**
 * Bytes per second the server reads from all the sockets of one address together (v1 and v2): beyond, it stops
 * reading from them until the address is back within it, so that one address's flood of frames is parsed at this
 * pace and others' round trips are not held behind it.
 */
export const DEFAULT_MAX_READ_BYTES_PER_SECOND_PER_IP = 4_194_304

/** What one address may send at once before {@link DEFAULT_MAX_READ_BYTES_PER_SECOND_PER_IP} applies: a frame at its largest. */
export const DEFAULT_READ_BURST_BYTES_PER_IP = 1_048_576

/** Longest a request (headers and body) may take to arrive at the bridge's HTTP server, in milliseconds. */
export const DEFAULT_HTTP_REQUEST_TIMEOUT_MS = 10_000

/** Interval between two server pings, in milliseconds (reference §3.3: 10 s). */
export const DEFAULT_PING_INTERVAL_MS = 10_000

/** Time-out of one push webhook call, in milliseconds. */
export const DEFAULT_WEBHOOK_TIMEOUT_MS = 5_000

/** Webhook calls in flight at once; calls beyond it are dropped and counted as failures. */
export const DEFAULT_MAX_WEBHOOKS_IN_FLIGHT = 64

/** Webhooks kept per topic; registering one more forgets the oldest. */
export const DEFAULT_MAX_WEBHOOKS_PER_TOPIC = 8

/** How long a registered webhook is kept, in seconds (30 days, refreshed by registering it again). */
export const DEFAULT_WEBHOOK_TTL_SECONDS = 2_592_000

/** Longest webhook URL accepted by `POST /subscribe`. */
export const MAX_WEBHOOK_URL_LENGTH = 2_048

/** `POST /subscribe` calls one address may make per minute (token bucket of the same size); `0` disables the limit. */
export const DEFAULT_MAX_WEBHOOK_REGISTRATIONS_PER_MINUTE_PER_IP = 60

/** Largest `POST /subscribe` body read, in bytes. */
export const MAX_HTTP_BODY_BYTES = 16_384

/** Interval between two sweeps of expired queued messages in the memory backend, in milliseconds. */
export const DEFAULT_SWEEP_INTERVAL_MS = 60_000

/** Close code when the server shuts down (RFC 6455 "going away"). */
export const CLOSE_GOING_AWAY = 1001

/** Close code of a socket over a rate limit (RFC 6455 "policy violation"); the reason says which. */
export const CLOSE_POLICY_VIOLATION = 1008

/** Close code of a frame larger than the maximum (RFC 6455 "message too big"). */
export const CLOSE_MESSAGE_TOO_BIG = 1009

/** Default Redis key and channel prefix. */
export const DEFAULT_REDIS_KEY_PREFIX = 'pairlink:bridge:'
