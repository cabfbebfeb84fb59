import { describe, expect, test } from 'vitest'
import { CliArgsError, parseCliArgs, USAGE } from './parseCliArgs.js'

// A well-formed v2 link (parsing needs no relay) and a v1 one.
const V2 = `wc:${'7f'.repeat(32)}@2?relay-protocol=irn&symKey=${'ab'.repeat(32)}`
const V1 = `wc:00000000-0000-4000-8000-000000000000@1?bridge=${encodeURIComponent('http://127.0.0.1:1')}&key=${'ab'.repeat(32)}`
const PROJECT = '0123456789abcdef0123456789abcdef'
const parse = (args: string[], env: Record<string, string | undefined> = {}) =>
  parseCliArgs(['--uri', V2, '--approve', ...args], env)

describe('parseCliArgs: the v2 relay and project', () => {
  test('default: no project id → the relay of the server --rpc-url points at, no project', () => {
    expect(parse(['--rpc-url', 'https://pairlink.example/rpc'])).toMatchObject({
      relayUrl: 'wss://pairlink.example',
      projectId: undefined,
    })
  })

  test("args: --project-id alone → WalletConnect's relay", () => {
    expect(parse(['--project-id', PROJECT])).toMatchObject({
      relayUrl: 'wss://relay.walletconnect.org',
      projectId: PROJECT,
    })
  })

  test('args: WALLETCONNECT_PROJECT_ID and WALLETCONNECT_RELAY_URL stand for the flags', () => {
    expect(parse([], { WALLETCONNECT_PROJECT_ID: ` ${PROJECT} ` })).toMatchObject({
      relayUrl: 'wss://relay.walletconnect.org',
      projectId: PROJECT,
    })
    expect(
      parse([], { WALLETCONNECT_PROJECT_ID: 'kiosk-1', WALLETCONNECT_RELAY_URL: 'ws://127.0.0.1:9010' }),
    ).toMatchObject({ relayUrl: 'ws://127.0.0.1:9010', projectId: 'kiosk-1' })
    // Empty counts as unset.
    expect(parse([], { WALLETCONNECT_PROJECT_ID: '', WALLETCONNECT_RELAY_URL: ' ' })).toMatchObject({
      relayUrl: 'ws://127.0.0.1:8545',
      projectId: undefined,
    })
  })

  test('args: the flags win over the variables', () => {
    const env = { WALLETCONNECT_PROJECT_ID: 'from-env', WALLETCONNECT_RELAY_URL: 'wss://env.example' }
    expect(parse(['--project-id', PROJECT, '--relay-url', 'ws://127.0.0.1:9010'], env)).toMatchObject({
      relayUrl: 'ws://127.0.0.1:9010',
      projectId: PROJECT,
    })
    // A relay flag alone keeps the variable's project, and the other way round.
    expect(parse(['--relay-url', 'ws://127.0.0.1:9010'], env)).toMatchObject({ projectId: 'from-env' })
    expect(parse(['--project-id', PROJECT], env)).toMatchObject({ relayUrl: 'wss://env.example' })
  })

  test('args: a v1 link takes neither', () => {
    expect(
      parseCliArgs(['--uri', V1, '--approve', '--project-id', PROJECT, '--relay-url', 'wss://x.example']),
    ).toMatchObject({ version: 1, relayUrl: undefined, projectId: undefined })
  })

  test.each([
    [['--project-id', 'a b'], {}, '--project-id must be a project id'],
    [['--project-id', ''], {}, '--project-id must be a project id'],
    [[], { WALLETCONNECT_PROJECT_ID: 'x/y' }, 'WALLETCONNECT_PROJECT_ID must be a project id'],
    [[], { WALLETCONNECT_RELAY_URL: 'https://relay.example' }, 'WALLETCONNECT_RELAY_URL must be a ws(s) URL'],
    [['--relay-url', 'wss://'], {}, '--relay-url must be a ws(s) URL'],
  ])('error: %j %j → %s', (args, env, message) => {
    expect(() => parse(args, env)).toThrow(CliArgsError)
    expect(() => parse(args, env)).toThrow(message)
  })
})

describe('parseCliArgs: one-click auth', () => {
  test('default: one-click auth is on (taken with --auto-sign)', () => {
    expect(parse(['--auto-sign'])).toMatchObject({ autoSign: true, oneClick: true })
  })

  test('args: --no-one-click switches it off', () => {
    expect(parse(['--auto-sign', '--no-one-click'])).toMatchObject({ autoSign: true, oneClick: false })
  })

  test('args: --help names --no-one-click', () => {
    expect(parseCliArgs(['--help'])).toEqual({ help: true })
    expect(USAGE).toContain('--no-one-click')
  })
})

describe('parseCliArgs: --smart-account', () => {
  test('default: the key itself', () => {
    expect(parse([])).toMatchObject({ smartAccount: undefined })
  })

  test('args: deployed and counterfactual', () => {
    expect(parse(['--smart-account', 'deployed'])).toMatchObject({ smartAccount: 'deployed' })
    expect(parse(['--smart-account', 'counterfactual', '--account-index', '2'])).toMatchObject({
      smartAccount: 'counterfactual',
      accountIndex: 2,
    })
  })

  test('error: another kind is refused, naming the kinds', () => {
    expect(() => parse(['--smart-account', 'safe'])).toThrow(
      new CliArgsError('--smart-account must be one of: deployed, counterfactual'),
    )
  })
})
