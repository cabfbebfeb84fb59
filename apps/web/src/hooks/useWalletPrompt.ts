import { focusWallet } from '@pairlink/modal/injected'
import { createContext, useContext } from 'react'
import { t } from '../i18n/i18n.js'

/** What a card says while the wallet is asked, and how it brings the wallet forward first. */
export type WalletPrompt = {
  /** `Confirm in MetaMask…`, or `Confirm in your wallet…` when the wallet's name is not known. */
  waiting: string
  /** Brings the wallet forward on a phone (the tapped wallet's link, no URI); call it inside the click. */
  focus: () => void
}

/** Parameters of {@link walletPrompt}. */
export type WalletPromptParameters = {
  /** The wallet's name: the session's peer metadata, else the wallet tapped in the modal's list. */
  name: string | undefined
  /** Whether the session was paired by QR code or the list (a browser wallet opens its own window). */
  paired: boolean
  /** @default focusWallet of `@pairlink/modal` (does nothing on a desktop or with no wallet tapped) */
  focus?: (() => unknown) | undefined
}

/**
 * The prompt for one session.
 *
 * @example
 * walletPrompt({ name: 'MetaMask', paired: true }).waiting // 'Confirm in MetaMask…'
 */
export function walletPrompt({ name, paired, focus = focusWallet }: WalletPromptParameters): WalletPrompt {
  const trimmed = name?.trim()
  return {
    waiting: trimmed ? t('confirm_in', { wallet: trimmed }) : t('confirm_in_wallet'),
    focus: () => {
      if (paired) focus()
    },
  }
}

const WalletPromptContext = createContext<WalletPrompt>(walletPrompt({ name: undefined, paired: false }))

/** Provides the session's {@link WalletPrompt} to the cards. */
export const WalletPromptProvider = WalletPromptContext.Provider

/**
 * The session's {@link WalletPrompt}: the card's waiting text, and the call that brings the wallet forward.
 *
 * @example
 * const prompt = useWalletPrompt(); onClick={() => { prompt.focus(); void sign.run() }}
 */
export function useWalletPrompt(): WalletPrompt {
  return useContext(WalletPromptContext)
}
