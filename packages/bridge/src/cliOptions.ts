import type { CliOption } from './cliOption.js'
import { LIMIT_CLI_OPTIONS } from './limitCliOptions.js'
import { REDIS_CLI_OPTIONS } from './redisCliOptions.js'
import { RELAY_CLI_OPTIONS } from './relayCliOptions.js'

/** Every CLI flag with its environment variable; `--help` and the README table are made from this list. */
export const CLI_OPTIONS: readonly CliOption[] = [
  { flag: 'port', env: 'PORT', kind: 'number', key: 'port', description: 'TCP port (default 5001)' },
  {
    flag: 'host',
    env: 'HOST',
    kind: 'string',
    key: 'host',
    description: 'address to listen on (default 127.0.0.1; 0.0.0.0 for all)',
  },
  ...REDIS_CLI_OPTIONS,
  ...LIMIT_CLI_OPTIONS,
  ...RELAY_CLI_OPTIONS,
  {
    flag: 'log-level',
    env: 'LOG_LEVEL',
    kind: 'string',
    key: 'logLevel',
    description: 'pino log level (info)',
  },
]
