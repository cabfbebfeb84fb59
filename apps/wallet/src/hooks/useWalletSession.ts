import type { TransportState } from '@pairlink/client'
import type { ClientMeta, JsonRpcRequest } from '@pairlink/protocol'
import { useCallback, useEffect, useRef, useState } from 'react'
import type { LocalAccount } from 'viem'
import type { RequestOutcome } from '../core/createWallet.js'
import { decodeRequest } from '../core/decodeRequest.js'
import { findError } from '../core/errors.js'
import type { ProposalSummary } from '../core/namespaces.js'
import { checkPairingLink } from '../core/pairingLink.js'
import type { SessionWallet } from '../core/sessionWallet.js'
import { openWallet, restoredText } from './openWallet.js'
import type { WalletConfig } from './useConfig.js'

/** A message for the person: what just happened. */
export type Status = { tone: 'info' | 'success' | 'warning' | 'error'; text: string }

/** One answered request as the activity list shows it: what was asked, by which dapp, when. */
export type ActivityItem = RequestOutcome & {
  /** What was asked, in words (`Sign message`, `Send transaction`), not the wire method. */
  title: string
  dapp: string
  /** When it was answered (ms since the epoch). */
  at: number
}

/** Where the session is. */
type Phase = 'idle' | 'pairing' | 'session_request' | 'connected'

/** Everything the screens show about the session. */
type SessionState = {
  phase: Phase
  /** The WalletConnect version of the link being paired or of the session; `null` when idle. */
  version: 1 | 2 | null
  /** v2: what the dapp's proposal asks for (chains, methods, events), shown before Approve. */
  proposal: ProposalSummary | undefined
  peer: ClientMeta | null
  /** The chain the dapp asked for in its session request. */
  requestedChainId: number | null
  chainId: number
  /** The session's account address. */
  address: string | undefined
  /** Call requests waiting for an answer, oldest first. */
  requests: JsonRpcRequest[]
  /** The last answer, shown until the person dismisses it or the next request comes. */
  outcome: RequestOutcome | undefined
  /** Recent answers, newest first. */
  activity: ActivityItem[]
  transport: TransportState
  /** The bridge has been unreachable for a while; the client keeps retrying. */
  bridgeRetrying: boolean
  status: Status | undefined
}

const INITIAL: SessionState = {
  phase: 'idle',
  version: null,
  proposal: undefined,
  peer: null,
  requestedChainId: null,
  chainId: 0,
  address: undefined,
  requests: [],
  outcome: undefined,
  activity: [],
  transport: 'closed',
  bridgeRetrying: false,
  status: undefined,
}

// A socket that is still connecting after this long is reported as unreachable (the client retries on its own).
const RETRY_NOTICE_MS = 2500
const MAX_ACTIVITY = 20
/** How long a pairing waits for the dapp's session request before it gives up and says so. */
export const PAIRING_TIMEOUT_MS = 30_000

/** Return type of {@link useWalletSession}. */
export type UseWalletSessionReturnType = SessionState & {
  /** Pairs with a link; `false` when the link cannot pair (the status says why) or the settings are not in yet. */
  pair(uri: string): Promise<boolean>
  cancelPairing(): void
  approveSession(choice: { account: LocalAccount; chainId: number }): Promise<void>
  rejectSession(): Promise<void>
  approveRequest(request: JsonRpcRequest): Promise<void>
  rejectRequest(request: JsonRpcRequest): Promise<void>
  dismissOutcome(): void
  switchAccount(account: LocalAccount): Promise<void>
  switchChain(chainId: number): Promise<void>
  disconnect(): Promise<void>
}

/**
 * The wallet's session as React state: pairs with a URI, restores the stored session on load, and turns every
 * client event into state and a plain-language status. All logic lives in `core/createWallet`.
 *
 * @example
 * const session = useWalletSession({ config, account: selected.account })
 */
export function useWalletSession(parameters: {
  config: WalletConfig | undefined
  account: LocalAccount
  /** @default PAIRING_TIMEOUT_MS (30 s) */
  pairingTimeoutMs?: number | undefined
}): UseWalletSessionReturnType {
  const { config, account, pairingTimeoutMs = PAIRING_TIMEOUT_MS } = parameters
  const [state, setState] = useState<SessionState>(INITIAL)
  const walletRef = useRef<SessionWallet | undefined>(undefined)
  const pairingTimerRef = useRef<ReturnType<typeof setTimeout> | undefined>(undefined)
  const stopPairingTimer = useCallback(() => clearTimeout(pairingTimerRef.current), [])
  const rejectingRef = useRef(false)
  const accountRef = useRef(account)
  accountRef.current = account

  const patch = useCallback((next: Partial<SessionState> | ((s: SessionState) => Partial<SessionState>)) => {
    setState((s) => ({ ...s, ...(typeof next === 'function' ? next(s) : next) }))
  }, [])
  const say = useCallback((tone: Status['tone'], text: string) => patch({ status: { tone, text } }), [patch])

  const attach = useCallback(
    (wallet: SessionWallet) => {
      walletRef.current = wallet
      let retryTimer: ReturnType<typeof setTimeout> | undefined
      const mine = () => walletRef.current === wallet
      const peerName = (meta: ClientMeta | null) => meta?.name || 'The dapp'

      wallet.on('transport', ({ state: transport }) => {
        if (!mine()) return
        clearTimeout(retryTimer)
        patch((s) => ({ transport, bridgeRetrying: transport === 'open' ? false : s.bridgeRetrying }))
        if (transport === 'connecting') {
          retryTimer = setTimeout(() => mine() && patch({ bridgeRetrying: true }), RETRY_NOTICE_MS)
        }
      })
      wallet.on('session_request', ({ peerMeta, chainId, proposal }) => {
        if (!mine()) return
        stopPairingTimer()
        patch({
          phase: 'session_request',
          peer: peerMeta,
          requestedChainId: chainId,
          proposal,
          status: undefined,
        })
      })
      wallet.on('connect', ({ peerMeta, chainId, accounts }) => {
        if (!mine()) return
        patch({ phase: 'connected', peer: peerMeta, chainId, address: accounts[0] })
        say('success', `Connected to ${peerName(peerMeta)}.`)
      })
      wallet.on('session_update', ({ chainId, accounts }) => {
        if (mine()) patch({ chainId, address: accounts[0] })
      })
      wallet.on('call_request', (request) => {
        // The request screen takes over; an older status line would only distract from it.
        if (mine()) patch((s) => ({ requests: [...s.requests, request], status: undefined }))
      })
      wallet.on('answered', (outcome) => {
        // Expired requests were never on screen; the restore lists them (see below), with what was asked.
        if (!mine() || outcome.status === 'expired') return
        patch((s) => {
          const request = s.requests.find((r) => r.id === outcome.id)
          const title = request ? decodeRequest(request).title : outcome.method
          const item = { ...outcome, title, dapp: peerName(s.peer), at: Date.now() }
          return {
            requests: s.requests.filter((r) => r.id !== outcome.id),
            outcome,
            activity: [item, ...s.activity].slice(0, MAX_ACTIVITY),
          }
        })
      })
      wallet.on('disconnect', ({ message }) => {
        if (!mine()) return
        clearTimeout(retryTimer)
        stopPairingTimer()
        walletRef.current = undefined
        setState((s) => {
          const name = peerName(s.peer)
          let status: Status
          if (rejectingRef.current)
            status = { tone: 'info', text: `You rejected the session request from ${name}.` }
          else if (s.phase !== 'connected')
            status = { tone: 'error', text: `${name} cancelled the session request: ${message}` }
          else if (message === 'Session Disconnected')
            status = { tone: 'info', text: `Disconnected from ${name}.` }
          else if (message === 'Session disconnected')
            status = { tone: 'warning', text: `${name} disconnected the session.` }
          else status = { tone: 'warning', text: `The session ended: ${message}` }
          rejectingRef.current = false
          return { ...INITIAL, activity: s.activity, status }
        })
      })
    },
    [patch, say, stopPairingTimer],
  )

  // Restore the stored session once the server settings are known: v1's (its layout), else a v2 one.
  useEffect(() => {
    if (!config || walletRef.current) return
    let wallet: SessionWallet | undefined
    try {
      wallet = openWallet({ config, account: accountRef.current })
    } catch {}
    if (!wallet) return
    const restoring = wallet
    attach(restoring)
    const onReady = () => {
      if (walletRef.current !== restoring) return
      if (!restoring.connected) {
        restoring.close()
        walletRef.current = undefined
        return
      }
      const name = restoring.peerMeta?.name || 'the dapp'
      patch({
        phase: 'connected',
        version: restoring.version,
        peer: restoring.peerMeta,
        chainId: restoring.chainId,
        address: restoring.accounts[0],
      })
      say('info', `Session with ${name} restored.`)
      // After the restored requests' own events, which cleared the status line for the request screen.
      void restoring.restored.then(({ requests, expired }) => {
        if (walletRef.current !== restoring || requests.length + expired.length === 0) return
        const at = Date.now()
        const items = [...expired].reverse().map(({ request, outcome }) => ({
          ...outcome,
          title: decodeRequest(request).title,
          dapp: restoring.peerMeta?.name || 'The dapp',
          at,
        }))
        patch((s) => ({ activity: [...items, ...s.activity].slice(0, MAX_ACTIVITY) }))
        say(expired.length > 0 ? 'warning' : 'info', restoredText(name, requests.length, expired.length))
      })
    }
    // v1 has its session at once, and its restored requests follow right after; v2 reads its storage first.
    if (restoring.version === 1) onReady()
    else
      void restoring.ready.then(onReady, () => {
        if (walletRef.current === restoring) walletRef.current = undefined
      })
  }, [config, attach, patch, say])

  useEffect(
    () => () => {
      stopPairingTimer()
      walletRef.current?.close()
    },
    [stopPairingTimer],
  )

  const run = useCallback(
    async (action: () => Promise<unknown>) => {
      try {
        await action()
      } catch (error) {
        say('error', error instanceof Error ? error.message : String(error))
      }
    },
    [say],
  )

  return {
    ...state,
    async pair(uri) {
      if (!config) {
        say('warning', 'Still loading the server settings; try again in a moment.')
        return false
      }
      const text = uri.trim()
      const problem = checkPairingLink(text)
      if (problem) {
        // v1's nudge is not a mistake: it only brings the wallet forward for a request the dapp already sent.
        say(problem.problem === 'nudge' ? 'info' : 'error', problem.message)
        return false
      }
      try {
        const previous = walletRef.current
        const wallet = openWallet({ uri: text, config, account: accountRef.current }) as SessionWallet
        // A new pairing replaces the current session; the old dapp is told.
        walletRef.current = undefined
        if (previous?.connected) await previous.disconnect().catch(() => {})
        previous?.close()
        // The pairing card says what is awaited; a status line repeating it would say it twice.
        setState((s) => ({ ...INITIAL, activity: s.activity, phase: 'pairing', version: wallet.version }))
        attach(wallet)
        // v2 joins the pairing on the relay: a link used already, or a relay that refuses it, fails here.
        wallet.ready.catch((error: unknown) => {
          if (walletRef.current !== wallet) return
          stopPairingTimer()
          wallet.close()
          walletRef.current = undefined
          const text = findError(error)?.message ?? (error instanceof Error ? error.message : String(error))
          setState((s) => ({ ...INITIAL, activity: s.activity, status: { tone: 'error', text } }))
        })
        stopPairingTimer()
        pairingTimerRef.current = setTimeout(() => {
          if (walletRef.current !== wallet) return
          wallet.close()
          walletRef.current = undefined
          const seconds = Math.round(pairingTimeoutMs / 1000)
          setState((s) => ({
            ...INITIAL,
            activity: s.activity,
            status: {
              tone: 'error',
              text: `No session request from the dapp within ${seconds} s: the link may be used or expired, or the dapp's page closed. Get a new link from the dapp and connect again.`,
            },
          }))
        }, pairingTimeoutMs)
        return true
      } catch (error) {
        // InvalidUriError messages are v1's exact texts (`URI format is invalid`, …).
        say('error', findError(error)?.message ?? `Could not pair: ${String(error)}`)
        return false
      }
    },
    cancelPairing() {
      stopPairingTimer()
      walletRef.current?.close()
      walletRef.current = undefined
      setState((s) => ({
        ...INITIAL,
        activity: s.activity,
        status: { tone: 'info', text: 'Pairing cancelled.' },
      }))
    },
    approveSession: ({ account: chosen, chainId }) =>
      run(async () => {
        await walletRef.current?.approveSession({ account: chosen, chainId })
      }),
    rejectSession: () =>
      run(async () => {
        rejectingRef.current = true
        await walletRef.current?.rejectSession()
      }),
    approveRequest: (request) => run(async () => void (await walletRef.current?.approveRequest(request))),
    rejectRequest: (request) => run(async () => void (await walletRef.current?.rejectRequest(request))),
    dismissOutcome: () => patch({ outcome: undefined }),
    switchAccount: (next) => run(async () => void (await walletRef.current?.setAccount(next))),
    switchChain: (chainId) => run(async () => void (await walletRef.current?.setChainId(chainId))),
    disconnect: () => run(async () => void (await walletRef.current?.disconnect())),
  }
}
