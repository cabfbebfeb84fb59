import { chmodSync, mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, test } from 'vitest'
import { ConfigError, loadConfig, redactUrl } from './config.js'

// A project id of the dashboard's shape (32 hex characters).
const PROJECT_ID = '0123456789abcdef0123456789abcdef'
// A link secret long enough to be accepted.
const SECRET = 'correct-horse-battery-staple'

describe('loadConfig', () => {
  test('default: an empty environment is the local dev setup', () => {
    expect(loadConfig({})).toEqual({
      port: 8080,
      host: '127.0.0.1',
      publicUrl: undefined,
      trustProxy: false,
      rpcUrl: undefined,
      redisUrl: undefined,
      redisWaitForReplicas: false,
      links: {},
      databaseUrl: undefined,
      dataDir: undefined,
      bridgeUrl: undefined,
      relayProjectIds: undefined,
      relayAllowedOrigins: undefined,
      relayLimits: {},
      walletConnect: undefined,
      walletsFile: undefined,
      logLevel: 'info',
    })
  })

  test("args: the v2 relay's limits are read from RELAY_* as pairlink-bridge reads BRIDGE_RELAY_*", () => {
    const config = loadConfig({ RELAY_MAX_TOTAL_BYTES: '1073741824', RELAY_MAX_REQUESTS_PER_SECOND: '0' })
    expect(config.relayLimits).toEqual({ maxTotalBytes: 1_073_741_824, maxRequestsPerSecond: 0 })
  })

  test.each([
    [{ RELAY_MAX_TOTAL_BYTES: 'lots' }, 'Invalid RELAY_MAX_TOTAL_BYTES: expected a number, got lots'],
    [{ RELAY_MAX_TOPICS_PER_SOCKET: '-1' }, 'RELAY_MAX_TOPICS_PER_SOCKET must be an integer > 0, got -1'],
    [{ RELAY_MAX_MESSAGE_LENGTH: '0' }, 'RELAY_MAX_MESSAGE_LENGTH must be an integer > 0, got 0'],
    [{ RELAY_MAX_REQUESTS_PER_SECOND: '-2' }, 'RELAY_MAX_REQUESTS_PER_SECOND must be a number ≥ 0, got -2'],
  ])('error: a bad relay limit names its variable (%o)', (env, message) => {
    expect(() => loadConfig(env)).toThrow(message)
  })

  test('args: every variable is read, typed and kept', () => {
    const config = loadConfig({
      PORT: '0',
      HOST: '::',
      PUBLIC_URL: 'https://pairlink.example',
      TRUST_PROXY: '1',
      RPC_URL: 'https://user:pass@node.example/v3/key',
      REDIS_URL: 'redis://127.0.0.1:6379',
      DATABASE_URL: 'postgres://u:p@db.example/pairlink',
      DATA_DIR: '/var/lib/pairlink',
      BRIDGE_URL: 'https://bridge.example',
      RELAY_PROJECT_IDS: '0123456789abcdef0123456789abcdef, kiosk-1',
      LOG_LEVEL: 'warn',
    })
    expect(config).toMatchObject({
      port: 0,
      host: '::',
      trustProxy: true,
      rpcUrl: 'https://user:pass@node.example/v3/key',
      redisUrl: 'redis://127.0.0.1:6379',
      databaseUrl: 'postgres://u:p@db.example/pairlink',
      dataDir: '/var/lib/pairlink',
      bridgeUrl: 'https://bridge.example',
      relayProjectIds: ['0123456789abcdef0123456789abcdef', 'kiosk-1'],
      logLevel: 'warn',
    })
    expect(config.publicUrl?.origin).toBe('https://pairlink.example')
    // Empty means unset, as a shell's `VAR=` does.
    expect(loadConfig({ PUBLIC_URL: '', RPC_URL: ' ' }).publicUrl).toBeUndefined()
  })

  test('args: Redis through Sentinel, as pairlink-bridge reads it', () => {
    const config = loadConfig({
      REDIS_SENTINELS: '10.0.0.1:26379,10.0.0.2:26379',
      REDIS_SENTINEL_MASTER: 'pairlink',
      REDIS_PASSWORD: 'pw',
      REDIS_WAIT_TIMEOUT_MS: '250',
      REDIS_WRITE_DELAY_MS: '0',
      BRIDGE_LINK_LISTEN: '0.0.0.0:7100',
    })
    expect(config.redisWriteDelayMs).toBe(0)
    expect(config.redisUrl).toBe('redis+sentinel://:pw@10.0.0.1:26379,10.0.0.2:26379/pairlink')
    expect(config.redisWaitForReplicas).toEqual({ replicas: 1, timeoutMs: 250 })
    expect(config.links).toEqual({ host: '0.0.0.0', port: 7100 })
    expect(
      loadConfig({ REDIS_URL: 'redis+sentinel://s1:26379/pairlink', REDIS_WAIT_REPLICAS: '0' }),
    ).toMatchObject({
      redisUrl: 'redis+sentinel://s1:26379/pairlink',
      redisWaitForReplicas: false,
    })
  })

  test("args: a WalletConnect project id alone means WalletConnect's relay and explorer", () => {
    expect(loadConfig({ WALLETCONNECT_PROJECT_ID: ` ${PROJECT_ID} ` }).walletConnect).toEqual({
      projectId: PROJECT_ID,
      relayUrl: 'wss://relay.walletconnect.org',
      explorerUrl: 'https://api.web3modal.org',
    })
  })

  test('args: WALLETCONNECT_RELAY_URL and WALLETCONNECT_EXPLORER_URL replace the defaults, kept as written', () => {
    const config = loadConfig({
      WALLETCONNECT_PROJECT_ID: PROJECT_ID.toUpperCase(),
      WALLETCONNECT_RELAY_URL: 'ws://127.0.0.1:9010',
      WALLETCONNECT_EXPLORER_URL: 'http://127.0.0.1:9011',
    })
    expect(config.walletConnect).toEqual({
      projectId: PROJECT_ID.toUpperCase(),
      // The relay URL is every token's `aud`: it is not normalised (no trailing slash added).
      relayUrl: 'ws://127.0.0.1:9010',
      explorerUrl: 'http://127.0.0.1:9011',
    })
  })

  test('args: RELAY_ALLOWED_ORIGINS is a list of origins in their canonical spelling', () => {
    expect(
      loadConfig({
        RELAY_ALLOWED_ORIGINS: 'https://App.Example, http://127.0.0.1:5173/,https://x.example:443',
      }).relayAllowedOrigins,
    ).toEqual(['https://app.example', 'http://127.0.0.1:5173', 'https://x.example'])
  })

  test('args: WALLETS_FILE names a readable file', () => {
    const dir = mkdtempSync(join(tmpdir(), 'pairlink-config-'))
    const file = join(dir, 'wallets.json')
    writeFileSync(file, '[]')
    expect(loadConfig({ WALLETS_FILE: file }).walletsFile).toBe(file)
    expect(() => loadConfig({ WALLETS_FILE: join(dir, 'missing.json') })).toThrow(
      new ConfigError(`WALLETS_FILE must be a readable JSON file, got ${join(dir, 'missing.json')} (ENOENT)`),
    )
    expect(() => loadConfig({ WALLETS_FILE: dir })).toThrow(
      new ConfigError(`WALLETS_FILE must be a readable JSON file, got ${dir} (not a file)`),
    )
    // root reads whatever the mode says: the check only means something for another user.
    if (process.getuid?.() !== 0) {
      chmodSync(file, 0o200)
      expect(() => loadConfig({ WALLETS_FILE: file })).toThrow('WALLETS_FILE must be a readable JSON file')
    }
  })

  test.each([
    ['WALLETCONNECT_RELAY_URL', 'wss://relay.example'],
    ['WALLETCONNECT_EXPLORER_URL', 'https://explorer.example'],
  ])('error: %s without WALLETCONNECT_PROJECT_ID is refused, not ignored', (name, value) => {
    expect(() => loadConfig({ [name]: value })).toThrow(
      new ConfigError(
        `${name} needs WALLETCONNECT_PROJECT_ID too (a project id from https://dashboard.reown.com), or unset it`,
      ),
    )
  })

  test.each([
    [
      { WALLETCONNECT_PROJECT_ID: 'my-project' },
      'WALLETCONNECT_PROJECT_ID must be 32 hex characters (a project id from https://dashboard.reown.com), got "my-project"',
    ],
    [{ WALLETCONNECT_PROJECT_ID: `${PROJECT_ID}0` }, 'WALLETCONNECT_PROJECT_ID must be 32 hex characters'],
    [{ WALLETCONNECT_PROJECT_ID: PROJECT_ID.replace('a', 'g') }, 'WALLETCONNECT_PROJECT_ID must be 32 hex'],
    [
      { WALLETCONNECT_PROJECT_ID: PROJECT_ID, WALLETCONNECT_RELAY_URL: 'https://relay.walletconnect.org' },
      'WALLETCONNECT_RELAY_URL must be a ws or wss URL, got https://relay.walletconnect.org/',
    ],
    [
      { WALLETCONNECT_PROJECT_ID: PROJECT_ID, WALLETCONNECT_RELAY_URL: 'wss://u:p@relay.example' },
      'WALLETCONNECT_RELAY_URL must not carry credentials',
    ],
    [
      { WALLETCONNECT_PROJECT_ID: PROJECT_ID, WALLETCONNECT_EXPLORER_URL: 'api.web3modal.org' },
      'WALLETCONNECT_EXPLORER_URL must be a URL (http: or https://…), got an invalid one',
    ],
    [{ RELAY_ALLOWED_ORIGINS: 'app.example' }, 'RELAY_ALLOWED_ORIGINS must be comma-separated origins'],
    [
      { RELAY_ALLOWED_ORIGINS: 'https://a.example,https://b.example/app' },
      'RELAY_ALLOWED_ORIGINS must be comma-separated origins (scheme://host[:port], e.g. https://app.example), got "https://b.example/app"',
    ],
    [
      { RELAY_ALLOWED_ORIGINS: 'https://a.example,,' },
      'RELAY_ALLOWED_ORIGINS must be comma-separated origins',
    ],
    [{ RELAY_ALLOWED_ORIGINS: 'wss://a.example' }, 'RELAY_ALLOWED_ORIGINS must be comma-separated origins'],
  ])('error: %o is refused, naming the variable', (env, message) => {
    expect(() => loadConfig(env)).toThrow(ConfigError)
    expect(() => loadConfig(env)).toThrow(message)
  })

  test('args: the bridge node links, read as pairlink-bridge reads them', () => {
    const redis = { REDIS_URL: 'redis://127.0.0.1:6379' }
    expect(
      loadConfig({
        ...redis,
        BRIDGE_LINK_LISTEN: '0.0.0.0:7100',
        BRIDGE_LINK_ADVERTISE: '10.0.0.5:7100',
        BRIDGE_LINK_SECRET: SECRET,
      }).links,
    ).toEqual({ host: '0.0.0.0', port: 7100, advertise: '10.0.0.5:7100', secret: SECRET })
    expect(loadConfig({ ...redis, BRIDGE_LINK_LISTEN: '[::1]:0' }).links).toEqual({ host: '::1', port: 0 })
    expect(loadConfig({ ...redis, BRIDGE_LINK_LISTEN: ' off ' }).links).toBe(false)
    // The secret is taken as given (pairlink-bridge does not trim it either); empty means unset.
    expect(loadConfig({ ...redis, BRIDGE_LINK_SECRET: ` ${SECRET}` }).links).toEqual({ secret: ` ${SECRET}` })
    expect(loadConfig({ ...redis, BRIDGE_LINK_SECRET: '', BRIDGE_LINK_ADVERTISE: ' ' }).links).toEqual({})
  })

  test.each([
    ['BRIDGE_LINK_LISTEN', '127.0.0.1:0'],
    ['BRIDGE_LINK_LISTEN', 'off'],
    ['BRIDGE_LINK_ADVERTISE', '10.0.0.5:7100'],
    ['BRIDGE_LINK_SECRET', SECRET],
  ])('error: %s without REDIS_URL is refused, not ignored', (name, value) => {
    expect(() => loadConfig({ [name]: value })).toThrow(
      new ConfigError(
        `${name} links the nodes of a Redis bridge: set REDIS_URL (or REDIS_SENTINELS) too, or unset it`,
      ),
    )
  })

  test.each([
    [
      'BRIDGE_LINK_LISTEN',
      '7100',
      'BRIDGE_LINK_LISTEN must be host:port (port 0: a free one) or off, got 7100',
    ],
    ['BRIDGE_LINK_LISTEN', 'host:65536', 'BRIDGE_LINK_LISTEN must be host:port'],
    ['BRIDGE_LINK_LISTEN', 'tcp://0.0.0.0:7100', 'BRIDGE_LINK_LISTEN must be host:port'],
    [
      'BRIDGE_LINK_ADVERTISE',
      '10.0.0.5',
      'BRIDGE_LINK_ADVERTISE must be host:port, the address the other nodes dial',
    ],
    ['BRIDGE_LINK_ADVERTISE', '10.0.0.5:0', 'BRIDGE_LINK_ADVERTISE must be host:port'],
  ])('error: %s=%s is refused, naming the variable', (name, value, message) => {
    const env = { REDIS_URL: 'redis://127.0.0.1:6379', [name]: value }
    expect(() => loadConfig(env)).toThrow(ConfigError)
    expect(() => loadConfig(env)).toThrow(message)
  })

  test('error: a short BRIDGE_LINK_SECRET is refused without being shown', () => {
    let error: unknown
    try {
      loadConfig({ REDIS_URL: 'redis://127.0.0.1:6379', BRIDGE_LINK_SECRET: 'hunter2-fifteen' })
    } catch (caught) {
      error = caught
    }
    expect(error).toBeInstanceOf(ConfigError)
    expect((error as Error).message).toBe(
      'BRIDGE_LINK_SECRET must be at least 16 characters (e.g. openssl rand -hex 32)',
    )
    expect(`${String(error)} ${JSON.stringify(error)} ${(error as Error).stack}`).not.toContain('hunter2')
  })

  test.each([
    ['PORT', 'eighty', 'PORT must be a port number, got eighty'],
    ['PORT', '65536', 'PORT must be a port number'],
    ['PORT', '-1', 'PORT must be a port number'],
    ['PORT', '80.5', 'PORT must be a port number'],
    ['HOST', 'http://0.0.0.0', 'HOST must be an IP address or a host name'],
    ['HOST', '127.0.0.1:80', 'HOST must be an IP address or a host name'],
    ['PUBLIC_URL', 'pairlink.example', 'PUBLIC_URL must be a URL'],
    ['RELAY_PROJECT_IDS', 'a,,b', 'RELAY_PROJECT_IDS must be comma-separated project ids'],
    ['RELAY_PROJECT_IDS', 'a b', 'RELAY_PROJECT_IDS must be comma-separated project ids'],
    ['PUBLIC_URL', 'ftp://pairlink.example', 'PUBLIC_URL must be a http or https URL'],
    ['PUBLIC_URL', 'https://pairlink.example/app', 'PUBLIC_URL must be an origin'],
    ['PUBLIC_URL', 'https://pairlink.example/?x=1', 'PUBLIC_URL must be an origin'],
    ['PUBLIC_URL', 'https://u:p@pairlink.example', 'PUBLIC_URL must not carry credentials'],
    ['TRUST_PROXY', 'yes', 'TRUST_PROXY must be 1 or 0, got yes'],
    ['RPC_URL', 'node.example:8545', 'RPC_URL must be'],
    ['RPC_URL', 'ws://node.example', 'RPC_URL must be a http or https URL'],
    [
      'REDIS_URL',
      'http://127.0.0.1:6379',
      'REDIS_URL must be a redis://, rediss:// or redis+sentinel:// URL',
    ],
    ['REDIS_SENTINELS', '127.0.0.1:26379', 'REDIS_SENTINELS (host:port,host:port) and REDIS_SENTINEL_MASTER'],
    ['REDIS_WAIT_REPLICAS', '1', 'REDIS_WAIT_REPLICAS needs Redis: set REDIS_URL or REDIS_SENTINELS'],
    ['REDIS_WRITE_DELAY_MS', '100', 'REDIS_WRITE_DELAY_MS needs Redis: set REDIS_URL or REDIS_SENTINELS'],
    ['DATABASE_URL', 'mysql://db', 'DATABASE_URL must be a postgres or postgresql URL'],
    ['BRIDGE_URL', 'bridge', 'BRIDGE_URL must be a URL'],
    [
      'LOG_LEVEL',
      'loud',
      'LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent, got loud',
    ],
  ])('error: %s=%s is refused, naming the variable', (name, value, message) => {
    expect(() => loadConfig({ [name]: value })).toThrow(ConfigError)
    expect(() => loadConfig({ [name]: value })).toThrow(message)
  })

  test('error: a bad URL with credentials is named without them', () => {
    let error: unknown
    try {
      loadConfig({ RPC_URL: 'wss://alice:hunter2@node.example/v3/KEY123' })
    } catch (caught) {
      error = caught
    }
    expect((error as Error).message).toBe('RPC_URL must be a http or https URL, got wss://node.example/…')
  })
})

describe('redactUrl', () => {
  test.each([
    ['https://alice:hunter2@node.example/v3/KEY123', 'https://node.example/…'],
    ['https://node.example/?key=KEY123', 'https://node.example/…'],
    ['http://127.0.0.1:1/', 'http://127.0.0.1:1/'],
    ['redis://127.0.0.1:1', 'redis://127.0.0.1:1'],
    [
      'redis+sentinel://:hunter2@10.0.0.1:26379,10.0.0.2:26379/pairlink/1',
      'redis+sentinel://10.0.0.1:26379,10.0.0.2:26379/pairlink',
    ],
    ['not a url', '(invalid URL)'],
  ])('default: %s → %s', (url, shown) => {
    expect(redactUrl(url)).toBe(shown)
  })
})
