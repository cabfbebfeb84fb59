// Every limit of the v2 relay in one table: its default, what it bounds, and its names on the CLI and in the
// environments of `pairlink-bridge` and the product server. `resolveRelayOptions` applies the defaults and refuses bad
// values; the CLI, the server's configuration, `--help` and docs/relay-v2.md's table are made from (or checked
// against) `RELAY_LIMITS`.
import { DEFAULT_MAX_QUEUED_BYTES_PER_IP } from '../constants.js'
import { InvalidBridgeOptionsError } from '../errors.js'

/** Default longest `ttl`: 7 days, the longest a v2 dapp may set on a request. */
export const DEFAULT_RELAY_MAX_TTL_SECONDS = 604_800
/** Default topics one socket may subscribe. */
export const DEFAULT_RELAY_MAX_TOPICS_PER_SOCKET = 1_000
/** Default topics all the sockets of one address may subscribe together (a NAT's many clients, a few topics each). */
const DEFAULT_RELAY_MAX_TOPICS_PER_IP = 20_000
/** Default messages kept per topic (the oldest dropped beyond). */
export const DEFAULT_RELAY_MAX_MESSAGES_PER_TOPIC = 1_000
/** Default bytes kept per topic (the oldest dropped beyond). */
export const DEFAULT_RELAY_MAX_BYTES_PER_TOPIC = 8_388_608
/** Default bytes the addresses of one network (IPv4 /24, IPv6 /48) may have owed over all topics. */
export const DEFAULT_RELAY_MAX_QUEUED_BYTES_PER_NETWORK = 33_554_432
/** Default bytes kept over all topics. */
export const DEFAULT_RELAY_MAX_TOTAL_BYTES = 268_435_456
/**
 * Default divisor of an address's share: it may be owed at most 1/64 of what is not owed yet (4 MiB of an empty
 * 256 MiB mailbox), so filling the mailbox takes many networks (docs/relay-v2.md, "Budgets").
 */
export const DEFAULT_RELAY_ADDRESS_SHARE_DIVISOR = 64
/** Default divisor of a network's share (IPv4 /24, IPv6 /48): 1/32 of what is not owed yet. */
export const DEFAULT_RELAY_NETWORK_SHARE_DIVISOR = 32
/** Default requests per second per socket. */
export const DEFAULT_RELAY_MAX_REQUESTS_PER_SECOND = 100
/** Default request bucket per socket. */
export const DEFAULT_RELAY_REQUEST_BURST = 200
/** Default requests per second of all the sockets of one address. */
export const DEFAULT_RELAY_MAX_REQUESTS_PER_SECOND_PER_IP = 1_000
/** Default request bucket per address. */
export const DEFAULT_RELAY_REQUEST_BURST_PER_IP = 2_000
/** Default longest `message`, characters. */
export const DEFAULT_RELAY_MAX_MESSAGE_LENGTH = 524_288
/** Default longest `attestation` (a Verify API token: a JWT well under 2 KB), characters. */
export const DEFAULT_RELAY_MAX_ATTESTATION_LENGTH = 4_096
/** Default bytes of messages one `irn_batchFetchMessages` answer (or one round of kept pushes) carries. */
export const DEFAULT_RELAY_MAX_ANSWER_BYTES = 1_048_576
/** Default longest lifetime of a relay token (`exp - iat`): the SDK signs them for one day. */
export const DEFAULT_RELAY_MAX_TOKEN_LIFETIME_SECONDS = 86_400
/** Default interval of the expiry sweep, ms. */
export const DEFAULT_RELAY_SWEEP_INTERVAL_MS = 60_000

/** One numeric limit of the relay. */
export type RelayLimit = {
  /** The `createRelay` option. */
  key: RelayLimitKey
  /** CLI flag after `--relay-`; `BRIDGE_RELAY_` / `RELAY_` + its upper-snake form name the variables. */
  flag: string
  default: number
  /** `0` switches the limit off (rates only). */
  mayBeZero?: boolean | undefined
  /** Counts and bytes are whole numbers; rates need not be. */
  integer: boolean
  description: string
}

/** The numeric limits `createRelay` takes. */
export type RelayLimitKey =
  | 'maxTtlSeconds'
  | 'maxTopicsPerSocket'
  | 'maxTopicsPerIp'
  | 'maxMessagesPerTopic'
  | 'maxBytesPerTopic'
  | 'maxQueuedBytesPerIp'
  | 'maxQueuedBytesPerNetwork'
  | 'maxTotalBytes'
  | 'addressShareDivisor'
  | 'networkShareDivisor'
  | 'maxRequestsPerSecond'
  | 'requestBurst'
  | 'maxRequestsPerSecondPerIp'
  | 'requestBurstPerIp'
  | 'maxMessageLength'
  | 'maxAttestationLength'
  | 'maxAnswerBytes'
  | 'maxTokenLifetimeSeconds'
  | 'sweepIntervalMs'

/** Every numeric limit of the v2 relay, in the order `--help` and the docs list them. */
export const RELAY_LIMITS: readonly RelayLimit[] = [
  {
    key: 'maxTtlSeconds',
    flag: 'max-ttl',
    default: DEFAULT_RELAY_MAX_TTL_SECONDS,
    integer: true,
    description: 'longest a message is kept, s; a longer ttl is cut to it',
  },
  {
    key: 'maxTopicsPerSocket',
    flag: 'max-topics-per-socket',
    default: DEFAULT_RELAY_MAX_TOPICS_PER_SOCKET,
    integer: true,
    description: 'topics one socket may subscribe',
  },
  {
    key: 'maxTopicsPerIp',
    flag: 'max-topics-per-ip',
    default: DEFAULT_RELAY_MAX_TOPICS_PER_IP,
    integer: true,
    description: 'topics all the sockets of one address may subscribe together',
  },
  {
    key: 'maxMessagesPerTopic',
    flag: 'max-messages-per-topic',
    default: DEFAULT_RELAY_MAX_MESSAGES_PER_TOPIC,
    integer: true,
    description: "messages kept per topic; the topic's oldest dropped beyond",
  },
  {
    key: 'maxBytesPerTopic',
    flag: 'max-bytes-per-topic',
    default: DEFAULT_RELAY_MAX_BYTES_PER_TOPIC,
    integer: true,
    description: "bytes kept per topic; the topic's oldest dropped beyond",
  },
  {
    key: 'maxQueuedBytesPerIp',
    flag: 'max-queued-bytes-per-ip',
    default: DEFAULT_MAX_QUEUED_BYTES_PER_IP,
    integer: true,
    description:
      'bytes one address (IPv6: its /64) may be owed over all topics, shrinking as the mailbox fills',
  },
  {
    key: 'maxQueuedBytesPerNetwork',
    flag: 'max-queued-bytes-per-network',
    default: DEFAULT_RELAY_MAX_QUEUED_BYTES_PER_NETWORK,
    integer: true,
    description: 'bytes one network (IPv4 /24, IPv6 /48) may be owed, shrinking as the mailbox fills',
  },
  {
    key: 'maxTotalBytes',
    flag: 'max-total-bytes',
    default: DEFAULT_RELAY_MAX_TOTAL_BYTES,
    integer: true,
    description:
      'bytes kept over all topics; beyond, delivered messages make room, then publishes are refused',
  },
  {
    key: 'addressShareDivisor',
    flag: 'address-share-divisor',
    default: DEFAULT_RELAY_ADDRESS_SHARE_DIVISOR,
    integer: true,
    description: 'an address may be owed at most (maxTotalBytes - owed bytes) / this',
  },
  {
    key: 'networkShareDivisor',
    flag: 'network-share-divisor',
    default: DEFAULT_RELAY_NETWORK_SHARE_DIVISOR,
    integer: true,
    description: 'a network may be owed at most (maxTotalBytes - owed bytes) / this',
  },
  {
    key: 'maxRequestsPerSecond',
    flag: 'max-requests-per-second',
    default: DEFAULT_RELAY_MAX_REQUESTS_PER_SECOND,
    mayBeZero: true,
    integer: false,
    description: 'requests (and bad frames) per second per socket, 0 = no limit',
  },
  {
    key: 'requestBurst',
    flag: 'request-burst',
    default: DEFAULT_RELAY_REQUEST_BURST,
    integer: true,
    description: 'requests per socket in a burst',
  },
  {
    key: 'maxRequestsPerSecondPerIp',
    flag: 'max-requests-per-second-per-ip',
    default: DEFAULT_RELAY_MAX_REQUESTS_PER_SECOND_PER_IP,
    mayBeZero: true,
    integer: false,
    description: 'requests per second of all the sockets of one address, 0 = no limit',
  },
  {
    key: 'requestBurstPerIp',
    flag: 'request-burst-per-ip',
    default: DEFAULT_RELAY_REQUEST_BURST_PER_IP,
    integer: true,
    description: 'requests per address in a burst',
  },
  {
    key: 'maxMessageLength',
    flag: 'max-message-length',
    default: DEFAULT_RELAY_MAX_MESSAGE_LENGTH,
    integer: true,
    description: 'longest message, characters',
  },
  {
    key: 'maxAttestationLength',
    flag: 'max-attestation-length',
    default: DEFAULT_RELAY_MAX_ATTESTATION_LENGTH,
    integer: true,
    description: 'longest attestation, characters',
  },
  {
    key: 'maxAnswerBytes',
    flag: 'max-answer-bytes',
    default: DEFAULT_RELAY_MAX_ANSWER_BYTES,
    integer: true,
    description: 'bytes of messages in one fetch answer or one round of kept pushes (at least one message)',
  },
  {
    key: 'maxTokenLifetimeSeconds',
    flag: 'max-token-lifetime',
    default: DEFAULT_RELAY_MAX_TOKEN_LIFETIME_SECONDS,
    integer: true,
    description: 'longest lifetime of a relay token (exp - iat), s',
  },
  {
    key: 'sweepIntervalMs',
    flag: 'sweep-interval',
    default: DEFAULT_RELAY_SWEEP_INTERVAL_MS,
    integer: true,
    description: 'expired messages are swept this often, ms',
  },
]

/** The relay's numeric limits after defaults. */
export type RelayLimits = Record<RelayLimitKey, number>

/** The upper-snake name of a limit's flag: `max-ttl` → `MAX_TTL`. */
export const relayLimitVariable = (limit: RelayLimit) => limit.flag.toUpperCase().replaceAll('-', '_')

/**
 * Applies the defaults to the relay's numeric limits and refuses a value that is not a number, is negative, is zero
 * where zero would silently stop relaying, or is fractional where a count is meant.
 *
 * @throws {InvalidBridgeOptionsError} naming the option and what was expected.
 * @example
 * resolveRelayLimits({ maxTotalBytes: 1 << 30 }).maxQueuedBytesPerIp // 16777216
 */
export function resolveRelayLimits(
  parameters: Partial<Record<RelayLimitKey, number | undefined>>,
): RelayLimits {
  const limits = {} as RelayLimits
  for (const limit of RELAY_LIMITS) {
    const value = parameters[limit.key] ?? limit.default
    const bad =
      typeof value !== 'number' ||
      !Number.isFinite(value) ||
      value < 0 ||
      (value === 0 && !limit.mayBeZero) ||
      (limit.integer && !Number.isInteger(value))
    if (bad)
      throw new InvalidBridgeOptionsError(`Invalid relay option ${limit.key}: ${String(value)}`, {
        details: `expected ${limit.integer ? 'an integer' : 'a number'} ${limit.mayBeZero ? '≥ 0' : '> 0'}`,
      })
    limits[limit.key] = value
  }
  return limits
}

/**
 * Reads the relay's limits from environment variables named `prefix` + the limit's upper-snake name
 * (`BRIDGE_RELAY_MAX_TOTAL_BYTES` for the CLI, `RELAY_MAX_TOTAL_BYTES` for the product server); an empty variable
 * counts as unset. Values are checked by {@link resolveRelayLimits} later; here only that each is a number.
 *
 * @throws {InvalidBridgeOptionsError} naming the variable.
 */
export function readRelayLimits(
  env: Readonly<Record<string, string | undefined>>,
  prefix: string,
): Partial<RelayLimits> {
  const read: Partial<RelayLimits> = {}
  for (const limit of RELAY_LIMITS) {
    const name = prefix + relayLimitVariable(limit)
    const raw = env[name]
    if (raw === undefined || raw === '') continue
    const value = Number(raw)
    if (raw.trim() === '' || !Number.isFinite(value))
      throw new InvalidBridgeOptionsError(`Invalid ${name}: expected a number, got ${raw}`)
    read[limit.key] = value
  }
  return read
}
