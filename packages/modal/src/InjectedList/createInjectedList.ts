import { h } from '../h.js'
import {
  getInjectedWallets,
  type InjectedWallet,
  saveInjectedChoice,
  watchInjectedWallets,
} from '../injected/injectedWallets.js'
import { BROWSER_WALLET, LEGACY_RDNS } from '../injected/readLegacyWallet.js'
import type { Strings } from '../locales/strings.js'
import { createWalletIcon } from '../WalletList/createWalletIcon.js'

/** Parameters of {@link createInjectedList}. */
export type CreateInjectedListParameters = {
  strings: Strings
  /** A wallet announced itself or left the list: draw it again. */
  onChange: () => void
  /** The person chose `wallet`; by then it is remembered and the list no longer follows the page. */
  onChoose: (wallet: InjectedWallet) => void
}

/** The browser wallets of the modal: drawn on each render, following the page's announcements until disposed. */
export type InjectedList = {
  /** The section for the wallets now, or `undefined` when there is none. */
  render: () => HTMLElement | undefined
  /** The `rdns` of each wallet listed now. */
  rdns: () => string[]
  dispose: () => void
}

// EIP-6963: the icon is a data URI, and an SVG must be shown through <img>, where it runs no script. Anything else
// (a remote URL that would tell a server who opened the modal, `javascript:`) gets the monogram.
const DATA_IMAGE = /^data:image\//i

/**
 * The browser wallets above the views: `Installed in this browser`, then one button per wallet with its own icon
 * and name (text, never markup), the last one chosen first. The legacy `window.ethereum` with no known flag is called
 * `Browser wallet` in the modal's language.
 *
 * @example
 * const list = createInjectedList({ strings, onChange: render, onChoose }); body.prepend(list.render() ?? '')
 */
export function createInjectedList({
  strings,
  onChange,
  onChoose,
}: CreateInjectedListParameters): InjectedList {
  let wallets = getInjectedWallets()
  const unwatch = watchInjectedWallets((next) => {
    wallets = next
    onChange()
  })
  const choose = (wallet: InjectedWallet) => {
    unwatch()
    saveInjectedChoice(wallet.info.rdns)
    onChoose(wallet)
  }
  const chip = (wallet: InjectedWallet, index: number) => {
    const { name, icon, rdns } = wallet.info
    const label = rdns === LEGACY_RDNS && name === BROWSER_WALLET ? strings.browser_wallet : name
    return h(
      'li',
      {},
      h(
        'button',
        // By position, not rdns: the page's text never goes into a selector (the modal finds focus by data-key).
        { type: 'button', class: 'chip', 'data-key': `injected-${index}`, onclick: () => choose(wallet) },
        createWalletIcon({
          name: label,
          shortName: '',
          color: '',
          logo: typeof icon === 'string' && DATA_IMAGE.test(icon) ? icon : '',
        }),
        h('span', { class: 'name' }, label),
      ),
    )
  }
  return {
    rdns: () => wallets.map((wallet) => wallet.info.rdns),
    render: () =>
      wallets.length === 0
        ? undefined
        : h(
            'div',
            { class: 'injected' },
            h('p', { id: 'injected-title', class: 'text' }, strings.installed),
            h('ul', { class: 'chips', 'aria-labelledby': 'injected-title' }, ...wallets.map(chip)),
          ),
    dispose: unwatch,
  }
}
