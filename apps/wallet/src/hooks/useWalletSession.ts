import type { JsonRpcRequest } from '@pairlink/protocol'
import { useCallback, useEffect, useRef, useState } from 'react'
import type { LocalAccount } from 'viem'
import { decodeRequest } from '../core/decodeRequest.js'
import { findError } from '../core/errors.js'
import { checkPairingLink } from '../core/pairingLink.js'
import type { SessionWallet } from '../core/sessionWallet.js'
import { t } from '../i18n/i18n.js'
import { attachWallet } from './attachWallet.js'
import { loadOpenWallet } from './loadOpenWallet.js'
import { restoredText } from './restoredText.js'
import { INITIAL, MAX_ACTIVITY, PAIRING_TIMEOUT_MS, type SessionState, type Status } from './sessionState.js'
import { hasStoredSession } from './storedSession.js'
import type { WalletConfig } from './useConfig.js'

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
      attachWallet(wallet, {
        mine: () => walletRef.current === wallet,
        detach: () => {
          walletRef.current = undefined
        },
        patch,
        say,
        setState,
        stopPairingTimer,
        rejecting: rejectingRef,
      })
    },
    [patch, say, stopPairingTimer],
  )

  // A kept session's wallet on screen, with the requests it brought back.
  const restore = useCallback(
    (restoring: SessionWallet) => {
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
        say('info', t('restored', { dapp: name }))
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
    },
    [attach, patch, say],
  )

  // Restore the stored session once the server settings are known: v1's (its layout), else a v2 one.
  useEffect(() => {
    if (!config || walletRef.current || !hasStoredSession()) return
    let cancelled = false
    void loadOpenWallet().then(
      (openWallet) => {
        // The page is gone, or a wallet is open already: nothing to restore into.
        if (cancelled || walletRef.current) return
        let wallet: SessionWallet | undefined
        try {
          wallet = openWallet({ config, account: accountRef.current })
        } catch {}
        if (wallet) restore(wallet)
      },
      () => {},
    )
    return () => {
      cancelled = true
    }
  }, [config, restore])

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
        say('warning', t('settings_loading'))
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
        const openWallet = await loadOpenWallet()
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
              text: t('pairing_timeout', { seconds }),
            },
          }))
        }, pairingTimeoutMs)
        return true
      } catch (error) {
        // InvalidUriError messages are v1's exact texts (`URI format is invalid`, …).
        say('error', findError(error)?.message ?? t('could_not_pair', { reason: String(error) }))
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
        status: { tone: 'info', text: t('pairing_cancelled') },
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
