import type { WebSocketConstructor } from '@pairlink/client'
import { InvalidUriError } from '@pairlink/protocol'
import { WALLETCONNECT_DASHBOARD_URL } from '@pairlink/protocol/v2'
import { createPublicClient, http, type LocalAccount } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { getDevAccount } from '../core/accounts.js'
import { createWallet } from '../core/createWallet.js'
import { createWalletV2 } from '../core/createWalletV2.js'
import { decodeRequest } from '../core/decodeRequest.js'
import { ExpiredLinkError, findError, IncompleteUriError, UnsupportedUriError } from '../core/errors.js'
import type { SessionWallet } from '../core/sessionWallet.js'
import { toSmartAccount } from '../core/toSmartAccount.js'
import { CliArgsError, type CliOptions, parseCliArgs, USAGE } from './parseCliArgs.js'

/** Parameters of {@link runCli}. */
export type RunCliParameters = {
  args: readonly string[]
  env?: Record<string, string | undefined> | undefined
  /** Gets one JSON line (without the newline) per event. */
  stdout: (line: string) => void
  /** Gets human-readable error text. */
  stderr: (text: string) => void
  WebSocket?: WebSocketConstructor | undefined
  /** Aborting ends the session (as Ctrl-C does) and resolves 0. */
  signal?: AbortSignal | undefined
}

/** The code of the v2 client's `RelayRefusedError`: the relay refused the socket and will again (no retry). */
const RELAY_REFUSED = 'ERR_RELAY_REFUSED'

/** The fields of a `RelayRefusedError` (`@pairlink/client/v2`) this CLI reads. */
type RelayRefusal = { message: string; kind?: unknown; reason?: unknown; closeCode?: unknown }

/**
 * One line naming the fix for a relay's refusal: the project id (`--project-id`, from WalletConnect's dashboard) or,
 * for an origin, the project's allowed domains.
 */
export function describeRefusal(
  refusal: RelayRefusal,
  options: { relayUrl?: string | undefined; projectId?: string | undefined },
): string {
  const said = typeof refusal.reason === 'string' && refusal.reason ? refusal.reason : refusal.message
  const refused = `The relay ${options.relayUrl} refused ${options.projectId ? `project ${options.projectId}` : 'this wallet'} ("${said}")`
  if (refusal.kind === 'origin')
    return `${refused}: add this wallet's origin to the project's allowed domains at ${WALLETCONNECT_DASHBOARD_URL}, or pass another --project-id`
  if (refusal.kind === 'project-missing' || refusal.kind === 'project-unknown')
    return `${refused}: pass --project-id (or set WALLETCONNECT_PROJECT_ID) with a project id from ${WALLETCONNECT_DASHBOARD_URL}`
  return `${refused}: check --project-id (a project id from ${WALLETCONNECT_DASHBOARD_URL}) and --relay-url`
}

/** What the wallet announces to dapps. */
const CLIENT_META = {
  name: 'Pairlink CLI wallet',
  description: 'pairlink-wallet: the headless reference wallet',
  url: 'https://github.com/pairlink/pairlink',
  icons: [],
}

/**
 * Runs `pairlink-wallet`: pairs with the URI, approves or rejects the session, answers call requests, and
 * resolves with the exit code (0 after the session ended, 1 on an error, 2 on bad arguments). Output never
 * contains the key or the full URI.
 *
 * @example
 * const code = await runCli({ args: process.argv.slice(2), stdout: console.log, stderr: console.error })
 */
export async function runCli(parameters: RunCliParameters): Promise<number> {
  const { stdout, stderr, signal } = parameters
  const print = (event: string, fields: Record<string, unknown> = {}) =>
    stdout(
      JSON.stringify({ event, ...fields }, (_, value) =>
        typeof value === 'bigint' ? value.toString() : value,
      ),
    )
  const fatal = (message: string, code: number) => {
    print('error', { message })
    stderr(`pairlink-wallet: ${message}\n`)
    return code
  }

  let options: CliOptions
  try {
    options = parseCliArgs(parameters.args, parameters.env ?? {})
  } catch (error) {
    const known = findError(
      error,
      CliArgsError.code,
      InvalidUriError.code,
      IncompleteUriError.code,
      UnsupportedUriError.code,
      ExpiredLinkError.code,
    )
    if (!known) throw error
    return fatal(`${known.message}${known.code === CliArgsError.code ? ' (see --help)' : ''}`, 2)
  }
  if (options.help) {
    stdout(USAGE)
    return 0
  }

  const key: LocalAccount = options.privateKey
    ? privateKeyToAccount(options.privateKey)
    : getDevAccount(options.accountIndex)
  const smart =
    options.smartAccount && toSmartAccount({ owner: key, kind: options.smartAccount, rpcUrl: options.rpcUrl })
  const account = smart || key
  let chainId = options.chainId
  // A rejecting wallet never needs the node; an approving one needs its chain id.
  if (chainId === undefined && options.decision === 'approve') {
    try {
      const node = createPublicClient({ transport: http(options.rpcUrl, { retryCount: 1, timeout: 10_000 }) })
      chainId = await node.getChainId()
    } catch {
      return fatal(
        `Could not read the chain id from the JSON-RPC node at ${options.rpcUrl} (pass --chain-id or --rpc-url)`,
        1,
      )
    }
  }

  // Deployed at start, so a chain without the factory or an unfunded key is said before any dapp waits on it.
  if (smart && smart.kind === 'deployed' && options.decision === 'approve') {
    try {
      await smart.deploy()
    } catch (error) {
      return fatal(error instanceof Error ? error.message : String(error), 1)
    }
  }

  let wallet: SessionWallet
  const common = {
    uri: options.uri,
    account,
    chainId: chainId ?? 1,
    rpcUrl: options.rpcUrl,
    storage: false as const,
  }
  try {
    wallet =
      options.version === 2
        ? createWalletV2({
            ...common,
            relayUrl: options.relayUrl,
            projectId: options.projectId,
            WebSocket: parameters.WebSocket,
            metadata: CLIENT_META,
            // A sign-in is a signature: taken only when signatures are (one rule for both, see --help).
            oneClick: options.oneClick && options.autoSign,
          })
        : createWallet({ ...common, WebSocket: parameters.WebSocket, clientMeta: CLIENT_META })
  } catch (error) {
    return fatal(findError(error)?.message ?? 'Could not start the wallet', 1)
  }
  const version = wallet.version
  print('pairing', {
    version,
    [version === 2 ? 'relay' : 'bridge']: wallet.endpoint,
    account: account.address,
    ...(smart && { smartAccount: smart.kind, owner: key.address }),
  })

  return new Promise<number>((resolve) => {
    let timer: ReturnType<typeof setTimeout> | undefined
    let done = false
    const finish = (code: number) => {
      if (done) return
      done = true
      clearTimeout(timer)
      signal?.removeEventListener('abort', stop)
      wallet.close()
      resolve(code)
    }
    const stop = () => {
      if (wallet.connected) wallet.disconnect().catch(() => finish(0))
      else finish(0)
    }
    const failAnswer = (error: unknown) => {
      const message = error instanceof Error ? error.message : String(error)
      finish(fatal(message, 1))
    }

    wallet.on('transport', ({ state }) => done || print('transport', { state }))
    wallet.on('session_request', ({ peerMeta, chainId: requested, proposal }) => {
      // v2: what the dapp asked for, before the answer (the wallet grants the eip155 chains it supports), and why
      // the wallet must refuse it when it requires more.
      const asked = proposal && {
        chains: proposal.chains,
        methods: proposal.methods,
        events: proposal.events,
        ...(proposal.refused && { refused: proposal.refused }),
      }
      print('session_request', { version, peer: peerMeta, chainId: requested, ...asked })
      const answer =
        options.decision === 'approve'
          ? wallet.approveSession()
          : wallet.rejectSession('User rejected the session.')
      answer.catch(failAnswer)
    })
    wallet.on('session_authenticate', ({ peerMeta, chainId: requested, request }) => {
      // v2 one-click auth: a session and a sign-in with one answer, decided as a session request is.
      print('session_authenticate', {
        version,
        peer: peerMeta,
        chainId: requested,
        domain: request.domain,
        chains: request.chains,
        methods: request.methods,
        granted: request.grantedMethods,
        ...(request.refused && { refused: request.refused }),
      })
      const answer =
        options.decision === 'approve'
          ? wallet.approveSession()
          : wallet.rejectSession('User rejected the sign-in.')
      answer.catch(failAnswer)
    })
    // One line per sign-in: who, as which account, on which chains (never the message's signature).
    wallet.on('signed_in', ({ peerMeta, domain, address, chains }) =>
      print('signed_in', { peer: peerMeta?.name ?? null, domain, account: address, chains }),
    )
    wallet.on('connect', ({ peerMeta, chainId: connectedChain, accounts }) =>
      print('connected', { peer: peerMeta, chainId: connectedChain, accounts }),
    )
    wallet.on('session_update', ({ chainId: updatedChain, accounts }) =>
      print('session_update', { chainId: updatedChain, accounts }),
    )
    wallet.on('call_request', (request) => {
      print('call_request', { id: request.id, method: request.method, decoded: decodeRequest(request) })
      const answer = options.autoSign ? wallet.approveRequest(request) : wallet.rejectRequest(request)
      answer.catch(failAnswer)
    })
    wallet.on('answered', ({ status, ...outcome }) => print(status, outcome))
    wallet.on('disconnect', ({ message }) => {
      print('disconnect', { message })
      finish(0)
    })

    if (options.timeout !== undefined) {
      const seconds = options.timeout
      timer = setTimeout(() => {
        if (wallet.connected) {
          print('timeout', { seconds })
          stop()
        } else finish(fatal(`No session within ${seconds} s`, 1))
      }, seconds * 1000)
    }
    // v2 pairs once the relay took the subscription: an expired or used link fails here.
    wallet.ready.catch((error: unknown) => {
      const refusal = findError(error, RELAY_REFUSED)
      const message = refusal
        ? describeRefusal(refusal as RelayRefusal, options)
        : (findError(error)?.message ?? `Could not pair: ${String(error)}`)
      finish(fatal(message, 1))
    })
    if (signal?.aborted) stop()
    else signal?.addEventListener('abort', stop, { once: true })
  })
}
