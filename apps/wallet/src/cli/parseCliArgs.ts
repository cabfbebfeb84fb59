import { parseArgs } from 'node:util'
import { BaseError, parseUri } from '@pairlink/protocol'
import { WALLETCONNECT_RELAY_URL } from '@pairlink/protocol/v2'
import type { Hex } from 'viem'
import { DEV_ACCOUNT_COUNT, parsePrivateKey } from '../core/accounts.js'
import { assertPairable, getLinkVersion } from '../core/pairingLink.js'
import { SMART_ACCOUNT_KINDS } from '../core/toSmartAccount.js'

/** Bad command-line arguments (exit code 2). The message never contains a key or the URI. */
export class CliArgsError extends BaseError {
  static override code = 'ERR_WALLET_CLI_ARGS'
  override name = 'CliArgsError'
}

/** The options of one `pairlink-wallet` run. */
export type CliOptions =
  | { help: true }
  | {
      help: false
      uri: string
      /** The link's protocol version. */
      version: 1 | 2
      /**
       * v2: the relay; from `--relay-url` or `WALLETCONNECT_RELAY_URL`, else WalletConnect's relay with a project id,
       * else the server of `--rpc-url` (`ws(s)://host:port`).
       */
      relayUrl: string | undefined
      /** v2: the project id sent to the relay; from `--project-id` or `WALLETCONNECT_PROJECT_ID`. */
      projectId: string | undefined
      decision: 'approve' | 'reject'
      autoSign: boolean
      /**
       * v2: answer one-click auth (`wc_sessionAuthenticate`); `false` from `--no-one-click`. The wallet takes it only
       * with `--auto-sign` (it is a signature): otherwise the dapp falls back to its session proposal.
       */
      oneClick: boolean
      /** From `--private-key` or `PAIRLINK_WALLET_PRIVATE_KEY`; else the dev account `accountIndex`. */
      privateKey: Hex | undefined
      accountIndex: number
      /** Act as the key's smart account on the dev chain (`--smart-account`); `undefined`: the key itself. */
      smartAccount: (typeof SMART_ACCOUNT_KINDS)[number] | undefined
      rpcUrl: string
      /** `undefined`: ask the node. */
      chainId: number | undefined
      /** Seconds; `undefined`: run until the session ends. */
      timeout: number | undefined
    }

/** The text of `pairlink-wallet --help`. */
export const USAGE = `Usage: pairlink-wallet --uri 'wc:…' (--approve | --reject) [options]

A headless WalletConnect v1 and v2 wallet for dapps' automated tests. Prints one JSON line per event on stdout.

  --uri URI            the dapp's wc: pairing URI: v1 (wc:…@1, its bridge and key are read from it) or
                       v2 (wc:…@2, which names no relay: see --relay-url)
  --approve            approve the session request (a v2 one that requires a chain, method or event
                       this wallet lacks is refused with the spec's error and the reason, then exit)
  --reject             reject the session request, then exit
  --auto-sign          approve every call request (sign, broadcast); without it every request is
                       rejected with 4001 "User rejected the request."
                       v2 one-click auth (a dapp asking to connect and sign in at once,
                       wc_sessionAuthenticate) is a signature too: with --auto-sign and --approve the
                       wallet signs in (one CACAO per chain it supports) and connects, with --reject
                       it refuses (5000); without --auto-sign it does not take one-click auth and the
                       dapp falls back to its ordinary session proposal
  --no-one-click       v2: never take one-click auth, even with --auto-sign: dapps fall back to the
                       session proposal (as with a wallet that does not support it)
  --private-key 0x…    sign with this key (or set PAIRLINK_WALLET_PRIVATE_KEY); default: a dev account
  --account-index N    dev account 0–${DEV_ACCOUNT_COUNT - 1} of anvil's test mnemonic (default 0)
  --smart-account KIND act as the key's smart account on the dev chain (Pairlink's anvil, where its
                       factory is): deployed (EIP-1271; deployed from the key at start, which pays
                       the gas) or counterfactual (EIP-6492; never deployed). Its address is the one
                       sessions get; messages and typed data are signed for it; transactions are
                       refused (4200)
  --rpc-url URL        JSON-RPC node for transactions (default http://127.0.0.1:8545)
  --relay-url URL      v2 relay (ws:// or wss://; or set WALLETCONNECT_RELAY_URL); default: with a
                       project id ${WALLETCONNECT_RELAY_URL} (WalletConnect's network, where
                       dapps on WalletConnect's SDKs pair), else the server of --rpc-url on the
                       same port (Pairlink's server serves /rpc and the relay alike); ignored
                       for a v1 link
  --project-id ID      v2 project id the relay checks (or set WALLETCONNECT_PROJECT_ID): for
                       WalletConnect's network, one from https://dashboard.reown.com
  --chain-id N         chain to approve the session with (default: the node's eth_chainId)
  --timeout SECONDS    end the session and exit after this long
  --help               show this text

Exit codes: 0 after the session ended, 1 on an error, 2 on bad arguments.`

/**
 * Parses `pairlink-wallet` arguments; throws {@link CliArgsError}, or the v1 URI error text for a bad URI.
 *
 * @example
 * parseCliArgs(['--uri', uri, '--approve', '--auto-sign'], process.env)
 */
export function parseCliArgs(
  args: readonly string[],
  env: Record<string, string | undefined> = {},
): CliOptions {
  let values: Record<string, string | boolean | undefined>
  try {
    ;({ values } = parseArgs({
      args: [...args],
      strict: true,
      allowPositionals: false,
      options: {
        uri: { type: 'string' },
        approve: { type: 'boolean' },
        reject: { type: 'boolean' },
        'auto-sign': { type: 'boolean' },
        'no-one-click': { type: 'boolean' },
        'private-key': { type: 'string' },
        'account-index': { type: 'string' },
        'smart-account': { type: 'string' },
        'rpc-url': { type: 'string' },
        'relay-url': { type: 'string' },
        'project-id': { type: 'string' },
        'chain-id': { type: 'string' },
        timeout: { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
    }))
  } catch (error) {
    // node's messages name the option, never its value.
    throw new CliArgsError(error instanceof Error ? error.message : String(error))
  }
  if (values.help) return { help: true }

  const uri = typeof values.uri === 'string' ? values.uri.trim() : ''
  if (!uri) throw new CliArgsError('Missing --uri: pass the dapp’s wc: URI')
  assertPairable(uri)
  const version = getLinkVersion(uri)
  if (version === 1) parseUri(uri)

  if (values.approve === values.reject) throw new CliArgsError('Pass exactly one of --approve and --reject')

  const keyText =
    typeof values['private-key'] === 'string' ? values['private-key'] : env.PAIRLINK_WALLET_PRIVATE_KEY
  if (keyText !== undefined && values['account-index'] !== undefined) {
    throw new CliArgsError('Pass either --private-key or --account-index, not both')
  }
  let privateKey: Hex | undefined
  if (keyText !== undefined) {
    try {
      privateKey = parsePrivateKey(keyText)
    } catch (error) {
      throw new CliArgsError((error as Error).message)
    }
  }

  const accountIndex = integer(values['account-index'], '--account-index', 0) ?? 0
  if (accountIndex >= DEV_ACCOUNT_COUNT) {
    throw new CliArgsError(`--account-index must be from 0 to ${DEV_ACCOUNT_COUNT - 1}`)
  }
  const kind = values['smart-account']
  if (kind !== undefined && !(SMART_ACCOUNT_KINDS as readonly unknown[]).includes(kind))
    throw new CliArgsError(`--smart-account must be one of: ${SMART_ACCOUNT_KINDS.join(', ')}`)
  const smartAccount = kind as (typeof SMART_ACCOUNT_KINDS)[number] | undefined
  const rpcUrl = typeof values['rpc-url'] === 'string' ? values['rpc-url'] : 'http://127.0.0.1:8545'
  if (!/^https?:\/\/./.test(rpcUrl) || !URL.canParse(rpcUrl))
    throw new CliArgsError('--rpc-url must be an http(s) URL')
  // A flag wins over its variable; an empty variable counts as unset, as a shell's `VAR=` does.
  const setting = (flag: string, variable: string) => {
    const given = values[flag]
    if (typeof given === 'string') return { text: given, name: `--${flag}` }
    const text = env[variable]?.trim()
    return text ? { text, name: variable } : undefined
  }
  const relay = setting('relay-url', 'WALLETCONNECT_RELAY_URL')
  if (relay !== undefined && (!/^wss?:\/\/./.test(relay.text) || !URL.canParse(relay.text)))
    throw new CliArgsError(`${relay.name} must be a ws(s) URL`)
  const project = setting('project-id', 'WALLETCONNECT_PROJECT_ID')
  if (project !== undefined && !/^[\w-]{1,128}$/.test(project.text))
    throw new CliArgsError(
      `${project.name} must be a project id (letters, digits, - and _; WalletConnect's are 32 hex characters)`,
    )
  const timeout = values.timeout === undefined ? undefined : Number(values.timeout)
  if (timeout !== undefined && !(Number.isFinite(timeout) && timeout > 0)) {
    throw new CliArgsError('--timeout must be a positive number of seconds')
  }

  return {
    help: false,
    uri,
    version,
    relayUrl:
      version === 2 ? (relay?.text ?? (project ? WALLETCONNECT_RELAY_URL : getRelayUrl(rpcUrl))) : undefined,
    projectId: version === 2 ? project?.text : undefined,
    decision: values.approve ? 'approve' : 'reject',
    autoSign: values['auto-sign'] === true,
    oneClick: values['no-one-click'] !== true,
    privateKey,
    accountIndex,
    smartAccount,
    rpcUrl,
    chainId: integer(values['chain-id'], '--chain-id', 1),
    timeout,
  }
}

function integer(value: string | boolean | undefined, name: string, min: number): number | undefined {
  if (value === undefined) return undefined
  const number = typeof value === 'string' && /^[0-9]+$/.test(value) ? Number(value) : Number.NaN
  if (!Number.isSafeInteger(number) || number < min)
    throw new CliArgsError(`${name} must be an integer ≥ ${min}`)
  return number
}

/**
 * The v2 relay of the server a JSON-RPC URL points at: Pairlink's server serves its `/rpc` and the relay on one port
 * (`http://host:port/rpc` → `ws://host:port`).
 *
 * @example
 * getRelayUrl('https://pairlink.example/rpc') // 'wss://pairlink.example'
 */
export function getRelayUrl(rpcUrl: string): string {
  const { protocol, host } = new URL(rpcUrl)
  return `${protocol === 'https:' ? 'wss' : 'ws'}://${host}`
}
