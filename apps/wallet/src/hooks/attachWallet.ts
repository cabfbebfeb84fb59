import type { ClientMeta } from '@pairlink/protocol'
import type { Dispatch, SetStateAction } from 'react'
import { decodeRequest } from '../core/decodeRequest.js'
import {
  AUTH_EXPIRED_MESSAGE,
  DAPP_CANCELLED_MESSAGE,
  OWN_DISCONNECT_MESSAGE,
  PEER_DISCONNECT_MESSAGE,
  type SessionWallet,
  SIGNED_IN_ONLY_MESSAGE,
} from '../core/sessionWallet.js'
import { t } from '../i18n/i18n.js'
import { INITIAL, MAX_ACTIVITY, RETRY_NOTICE_MS, type SessionState, type Status } from './sessionState.js'

/** What {@link attachWallet} changes: the hook's state and its refs. */
export type AttachWalletContext = {
  /** Whether `wallet` is still the hook's (a replaced one's late events are ignored). */
  mine(): boolean
  /** Forgets the wallet: its session ended. */
  detach(): void
  patch(next: Partial<SessionState> | ((s: SessionState) => Partial<SessionState>)): void
  say(tone: Status['tone'], text: string): void
  setState: Dispatch<SetStateAction<SessionState>>
  stopPairingTimer(): void
  /** Set while the person's rejection of a session request is on its way. */
  rejecting: { current: boolean }
}

/**
 * Turns every event of a wallet (v1 or v2) into the hook's state and a plain-language status.
 *
 * @example
 * attachWallet(wallet, { mine: () => ref.current === wallet, detach, patch, say, setState, stopPairingTimer, rejecting })
 */
export function attachWallet(wallet: SessionWallet, context: AttachWalletContext): void {
  const { mine, detach, patch, say, setState, stopPairingTimer, rejecting } = context
  let retryTimer: ReturnType<typeof setTimeout> | undefined
  // Set once the wallet signed the dapp in (one-click auth): the connection that follows says so.
  let signedIn = false
  const peerName = (meta: ClientMeta | null) => meta?.name || t('the_dapp')

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
      auth: undefined,
      status: undefined,
    })
  })
  wallet.on('session_authenticate', ({ peerMeta, chainId, request }) => {
    if (!mine()) return
    stopPairingTimer()
    patch({
      phase: 'session_request',
      peer: peerMeta,
      requestedChainId: chainId,
      proposal: undefined,
      auth: request,
      status: undefined,
    })
  })
  wallet.on('signed_in', () => {
    signedIn = true
  })
  wallet.on('connect', ({ peerMeta, chainId, accounts }) => {
    if (!mine()) return
    patch({ phase: 'connected', peer: peerMeta, chainId, address: accounts[0], auth: undefined })
    say('success', t(signedIn ? 'connected_signed_in' : 'connected_notice', { dapp: peerName(peerMeta) }))
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
    detach()
    setState((s) => {
      const name = peerName(s.peer)
      let status: Status
      const asking = s.phase === 'session_request'
      // What the dapp asked for: a session, or (v2 one-click auth) a session and a sign-in.
      const signIn = asking && s.auth !== undefined
      const refused = asking ? (s.auth ?? s.proposal)?.refused : undefined
      if (refused)
        status = {
          tone: 'warning',
          text: t(signIn ? 'refused_sign_in' : 'refused_session', { dapp: name, reason: refused }),
        }
      else if (message === AUTH_EXPIRED_MESSAGE)
        status = {
          tone: 'warning',
          text: t('sign_in_expired', { dapp: name }),
        }
      else if (message === SIGNED_IN_ONLY_MESSAGE)
        status = { tone: 'success', text: t('signed_in_only', { dapp: name }) }
      else if (rejecting.current)
        status = { tone: 'info', text: t(signIn ? 'rejected_sign_in' : 'rejected_session', { dapp: name }) }
      else if (message === DAPP_CANCELLED_MESSAGE)
        status = { tone: 'warning', text: t('dapp_cancelled', { dapp: name }) }
      else if (s.phase !== 'connected')
        status = { tone: 'error', text: t('cancelled_request', { dapp: name, reason: message }) }
      else if (message === OWN_DISCONNECT_MESSAGE)
        status = { tone: 'info', text: t('disconnected_from', { dapp: name }) }
      else if (message === PEER_DISCONNECT_MESSAGE)
        status = { tone: 'warning', text: t('peer_disconnected', { dapp: name }) }
      else status = { tone: 'warning', text: t('session_ended', { reason: message }) }
      rejecting.current = false
      return { ...INITIAL, activity: s.activity, status }
    })
  })
}
