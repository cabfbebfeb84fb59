import { WALLETS_PER_PAGE } from '../constants.js'
import { h } from '../h.js'
import type { Strings } from '../locales/strings.js'
import { formatDeepLink, type Wallet } from '../registry/formatDeepLink.js'
import { saveDeepLinkChoice } from '../registry/saveDeepLinkChoice.js'
import { createWalletIcon } from './createWalletIcon.js'

/** How long typing waits before filtering. v1 waited 1000 ms; people expect a list to follow their typing. */
export const SEARCH_DEBOUNCE_MS = 150

/** Parameters of {@link createWalletList}. */
export type CreateWalletListParameters = {
  wallets: readonly Wallet[]
  /** The URI the links carry; `undefined` while the code is expired (links disabled). */
  uri: string | undefined
  strings: Strings
}

/** The wallet list: its element, `setUri`, and a `dispose` that stops its timer. */
export type WalletList = {
  element: HTMLElement
  /** Points every link at `uri` in place (page, search and focus stay); `undefined` (the code expired) disables them. */
  setUri: (uri: string | undefined) => void
  dispose: () => void
}

/**
 * The wallet list of the link view (reference §6.5): a search box (case-insensitive substring of the name,
 * back to page 1), a grid of wallet icons (the registry's image, else a monogram in the wallet's colour) linking to
 * each wallet's deep link, and page numbers when the wallets fill more than one page of {@link WALLETS_PER_PAGE}. A click stores `WALLETCONNECT_DEEPLINK_CHOICE`.
 *
 * @example
 * const list = createWalletList({ wallets, uri, strings }); panel.append(list.element)
 */
export function createWalletList({ wallets, uri: initial, strings }: CreateWalletListParameters): WalletList {
  let uri: string | undefined = initial
  let links: [HTMLAnchorElement, Wallet][] = []
  let filter = ''
  let page = 1
  let timer: ReturnType<typeof setTimeout> | undefined
  const results = h('div')

  const render = () => {
    const matches = filter ? wallets.filter((wallet) => wallet.name.toLowerCase().includes(filter)) : wallets
    const pages = Math.ceil(matches.length / WALLETS_PER_PAGE)
    const shown = matches.slice((page - 1) * WALLETS_PER_PAGE, page * WALLETS_PER_PAGE)
    const active = (results.getRootNode() as Document | ShadowRoot).activeElement
    const hadFocus = active !== null && results.contains(active)
    links = shown.map((wallet) => [walletLink(wallet), wallet])
    for (const [link, wallet] of links) point(link, wallet, uri)
    results.replaceChildren(
      matches.length === 0
        ? h('p', { class: 'status', role: 'status' }, strings.no_wallets_found)
        : h('ul', { class: 'grid' }, ...links.map(([link]) => h('li', {}, link))),
      pages > 1
        ? h(
            'div',
            { class: 'pages' },
            ...Array.from({ length: pages }, (_, index) =>
              h(
                'button',
                {
                  type: 'button',
                  class: 'page',
                  'data-key': `page-${index + 1}`,
                  'aria-current': index + 1 === page ? 'page' : undefined,
                  onclick: () => {
                    page = index + 1
                    render()
                  },
                },
                String(index + 1),
              ),
            ),
          )
        : '',
    )
    // Keep keyboard users on the page buttons as the grid changes under them.
    if (hadFocus) results.querySelector<HTMLElement>(`[data-key="page-${page}"]`)?.focus()
  }

  const apply = (value: string) => {
    filter = value.trim().toLowerCase()
    page = 1
    render()
  }

  const search = h('input', {
    type: 'search',
    class: 'search',
    placeholder: strings.search,
    'aria-label': strings.search,
    autocomplete: 'off',
    oninput: () => {
      clearTimeout(timer)
      // Clearing shows every wallet at once, as v1 did; typing waits for a pause.
      if (!search.value) apply('')
      else timer = setTimeout(() => apply(search.value), SEARCH_DEBOUNCE_MS)
    },
  })

  render()
  return {
    element: h('div', {}, h('p', { class: 'text' }, strings.choose_preferred_wallet), search, results),
    setUri: (next) => {
      uri = next
      for (const [link, wallet] of links) point(link, wallet, uri)
    },
    dispose: () => clearTimeout(timer),
  }
}

function walletLink(wallet: Wallet): HTMLAnchorElement {
  // The visible name is the accessible name (no aria-label that could differ from it, WCAG 2.5.3).
  const link: HTMLAnchorElement = h(
    'a',
    {
      class: 'wallet',
      target: '_blank',
      rel: 'noopener noreferrer',
      onclick: () => {
        const href = link.getAttribute('href')
        if (href) saveDeepLinkChoice(wallet.name, href)
      },
    },
    createWalletIcon(wallet),
    h('span', { class: 'name' }, wallet.name),
  )
  return link
}

/** Points a wallet's link at `uri`, or — for an expired code — leaves it without `href`: no longer a link. */
function point(link: HTMLAnchorElement, wallet: Wallet, uri: string | undefined): void {
  if (uri === undefined) link.removeAttribute('href')
  else link.setAttribute('href', formatDeepLink(wallet, uri))
}
