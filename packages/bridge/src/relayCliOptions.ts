import type { CliOption } from './cliOption.js'
import { RELAY_LIMITS, relayLimitVariable } from './v2/relayOptions.js'

/** The flags of the v2 relay: its URLs, audience check, limits, project ids, origins and refusal, in `--help` order. */
export const RELAY_CLI_OPTIONS: readonly CliOption[] = [
  {
    flag: 'relay-url',
    env: 'BRIDGE_RELAY_URLS',
    kind: 'list',
    key: 'relayUrls',
    description:
      'public URLs of the v2 relay a token aud must name, comma-separated (default: where it listens)',
  },
  {
    flag: 'relay-strict-audience',
    env: 'BRIDGE_RELAY_STRICT_AUDIENCE',
    kind: 'boolean',
    key: 'relayStrictAudience',
    description: "a token's aud must equal one --relay-url exactly, with a JWT/EdDSA header",
  },
  ...RELAY_LIMITS.map(
    (limit): CliOption => ({
      flag: `relay-${limit.flag}`,
      env: `BRIDGE_RELAY_${relayLimitVariable(limit)}`,
      kind: 'number',
      key: `relay:${limit.key}`,
      description: `v2: ${limit.description} (${limit.default})`,
    }),
  ),
  {
    flag: 'relay-max-message-length-by-tag',
    env: 'BRIDGE_RELAY_MAX_MESSAGE_LENGTH_BY_TAG',
    kind: 'list',
    key: 'relayMaxMessageLengthByTag',
    description: 'v2: longest message per tag, tag:length,… (none)',
  },
  {
    flag: 'relay-min-request-id',
    env: 'BRIDGE_RELAY_MIN_REQUEST_ID',
    kind: 'number',
    key: 'relayMinRequestId',
    description: 'v2: smallest request id accepted (any)',
  },
  {
    flag: 'relay-project-ids',
    env: 'BRIDGE_RELAY_PROJECT_IDS',
    kind: 'list',
    key: 'relayProjectIds',
    description: 'comma-separated v2 project ids served (any when unset)',
  },
  {
    flag: 'relay-allowed-origins',
    env: 'BRIDGE_RELAY_ALLOWED_ORIGINS',
    kind: 'list',
    key: 'relayAllowedOrigins',
    description: 'comma-separated page origins allowed on v2 (any when unset; localhost always)',
  },
  {
    flag: 'relay-refusal',
    env: 'BRIDGE_RELAY_REFUSAL',
    kind: 'string',
    key: 'relayRefusal',
    description: "how v2 upgrades are refused: http (401/403) or close (3000, WalletConnect's)",
  },
]
