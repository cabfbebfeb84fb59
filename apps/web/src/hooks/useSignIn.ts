import { useCallback, useEffect, useRef, useState } from 'react'
import { useSignMessage } from 'wagmi'
import { signInWithWallet } from '../components/SignIn/signIn.js'
import { describeServerError } from '../describeServerError.js'
import { t } from '../i18n/i18n.js'
import { getMe, logout, type SignedInAccount } from '../serverApi.js'
import type { Notice, OneClickSignIn } from './usePairlink.js'

/** Where the sign-in is: asking the server, signed out, waiting for the wallet's signature, or signed in. */
type SignInStatus = 'checking' | 'signed-out' | 'signing' | 'signed-in'

/** Return type of {@link useSignIn}. */
export type SignInState = {
  status: SignInStatus
  /** The signed-in account, only while it is the wallet's connected account. */
  account: SignedInAccount | undefined
  /** The last outcome (signed in, signed out, refused, …) in plain words. */
  message: Notice | undefined
  signIn: () => Promise<void>
  /** Stops waiting for the wallet's signature; a signature that comes later is ignored. */
  cancel: () => void
  signOut: () => Promise<void>
  /** The server no longer knows the session (a 401 elsewhere): show signed out. */
  sessionEnded: () => void
}

const same = (a: string | undefined, b: string | undefined) =>
  a !== undefined && b !== undefined && a.toLowerCase() === b.toLowerCase()

/**
 * Sign-In with Ethereum against the server. On load it asks `GET /api/me`, so the sign-in survives a reload. It
 * shows signed in only while the server's account is the wallet's connected one: when the wallet switches account
 * the session is closed (`POST /api/logout`) and the person told. With no wallet connected it shows signed out but
 * keeps the server session, so reconnecting the same account is still signed in. The wallet signs through wagmi's
 * `signMessage`. A sign-in that came with the connection (`oneClick`, WalletConnect's one-click auth) is this hook's
 * outcome instead: checking while the server verifies it, then signed in, or signed out with the server's words.
 *
 * @example
 * const signIn = useSignIn(session?.address, config.chainId, state.oneClick)
 */
export function useSignIn(
  address: `0x${string}` | undefined,
  chainId: number,
  oneClick?: OneClickSignIn | undefined,
): SignInState {
  // What the server says: `undefined` while asking, `null` when not signed in.
  const [server, setServer] = useState<SignedInAccount | null | undefined>(undefined)
  const [signing, setSigning] = useState(false)
  const [message, setMessage] = useState<Notice | undefined>()
  const attempt = useRef(0)
  const { signMessageAsync } = useSignMessage()
  // A connection that signed in decides, and `GET /api/me` is not asked: sent while the verify is under way, its
  // signed-out answer (which clears the cookie) could land after the verify's and end the session it just opened.
  const oneClickRef = useRef(oneClick)
  oneClickRef.current = oneClick

  useEffect(() => {
    if (oneClickRef.current) return
    let live = true
    getMe().then(
      (account) => live && !oneClickRef.current && setServer(account ?? null),
      (error: unknown) => {
        if (!live) return
        setServer(null)
        setMessage({ tone: 'error', text: describeServerError(error, 'signIn') })
      },
    )
    return () => {
      live = false
    }
  }, [])

  // The wallet is on another account than the one signed in (switched in the wallet, or another wallet paired).
  const mismatch = server && address && !same(server.address, address) ? server.address : undefined
  useEffect(() => {
    if (!mismatch || !address) return
    // Another sign-in started meanwhile must not be undone.
    attempt.current++
    setServer(null)
    setMessage({
      tone: 'info',
      text: t('account_switched', { address }),
    })
    // Best effort: even if the server is unreachable, this page shows signed out, and the next load asks again.
    logout().catch(() => {})
  }, [mismatch, address])

  useEffect(() => {
    if (!oneClick || oneClick.status === 'verifying') return
    attempt.current++
    setSigning(false)
    if (oneClick.status === 'signed-in') {
      setServer(oneClick.account)
      setMessage({ tone: 'success', text: t('signed_in_notice', { address: oneClick.account.address }) })
    } else {
      setServer(null)
      setMessage({ tone: 'error', text: describeServerError(oneClick.error, 'signIn') })
    }
  }, [oneClick])

  const signIn = useCallback(async () => {
    if (!address) return
    const id = ++attempt.current
    setSigning(true)
    setMessage(undefined)
    try {
      const account = await signInWithWallet({
        address,
        chainId,
        signMessage: signMessageAsync,
        // Cancelled (or signed out, or another account) while the wallet was signing: the server never hears of it.
        wanted: () => id === attempt.current,
      })
      if (id !== attempt.current) return
      setServer(account)
      setMessage({ tone: 'success', text: t('signed_in_notice', { address: account.address }) })
    } catch (error) {
      if (id === attempt.current) setMessage({ tone: 'error', text: describeServerError(error, 'signIn') })
    } finally {
      if (id === attempt.current) setSigning(false)
    }
  }, [signMessageAsync, address, chainId])

  const cancel = useCallback(() => {
    attempt.current++
    setSigning(false)
    setMessage({ tone: 'error', text: t('stopped_waiting') })
  }, [])

  const signOut = useCallback(async () => {
    attempt.current++
    setSigning(false)
    try {
      await logout()
      setServer(null)
      setMessage({ tone: 'info', text: t('signed_out_notice') })
    } catch (error) {
      setMessage({ tone: 'error', text: describeServerError(error, 'signOut') })
    }
  }, [])

  const sessionEnded = useCallback(() => {
    setServer(null)
    setMessage({ tone: 'error', text: t('sign_in_ended') })
  }, [])

  const signedIn = server && same(server.address, address) ? server : undefined
  const status: SignInStatus = signing
    ? 'signing'
    : signedIn
      ? 'signed-in'
      : (server === undefined || oneClick?.status === 'verifying') && address
        ? 'checking'
        : 'signed-out'
  return { status, account: signedIn, message, signIn, cancel, signOut, sessionEnded }
}
