import { h } from '../h.js'
import type { Strings } from '../locales/strings.js'
import type { Platform } from '../platform/detectPlatform.js'
import { formatDeepLink, type Wallet } from '../registry/formatDeepLink.js'
import { saveDeepLinkChoice } from '../registry/saveDeepLinkChoice.js'

/** Where the wallet registry is: loading, failed, or loaded (and filtered by the allow-list). */
export type RegistryState =
  | { status: 'loading' }
  | { status: 'error' }
  | { status: 'ready'; wallets: Wallet[] }

/** The two halves of the toggle: the QR code, or the links (wallet list, or Android's Connect button). */
export type View = 'qr' | 'links'

/** What {@link renderBody} draws from, and the callbacks its controls fire. */
export type RenderBodyParameters = {
  platform: Platform
  view: View
  registry: RegistryState
  /** The URI the links carry; `undefined` while the code is expired: no `href`, so no longer links. */
  uri: string | undefined
  strings: Strings
  /** The relay's refusal: said in place of the code, the toggle and the lists. */
  refused?: string | undefined
  /** The QR view, built once per modal (on first use). */
  qrPanel: () => HTMLElement
  /** The browser wallets, shown first on every platform when there are any. */
  injected: HTMLElement | undefined
  /** The wallet list, built once per loaded registry. */
  walletList: () => HTMLElement
  onView: (view: View) => void
  onRetry: () => void
}

/**
 * The modal's body for one state (reference §6.3): the toggle (`QR Code | Desktop` on desktop, `Mobile | QR Code`
 * elsewhere) or the single-wallet shortcut, then the selected panel. Unlike v1, a failed registry is shown with a
 * retry instead of silently falling back to the QR code; the QR tab stays beside it. The browser wallets, when the
 * app offers them, come before all of it.
 */
export function renderBody(parameters: RenderBodyParameters): Node[] {
  const { platform, view, registry } = parameters
  const android = platform === 'android'
  const wallets = registry.status === 'ready' ? registry.wallets : []
  const single = !android && wallets.length === 1 ? wallets[0] : undefined
  // v1 rule: no toggle when the links side would be empty; Android's side is its Connect button.
  const toggle = android || registry.status !== 'ready' || wallets.length > 1
  const showLinks = toggle && view === 'links'
  const nodes: Node[] = []
  if (parameters.injected) nodes.push(parameters.injected)
  if (parameters.refused !== undefined) {
    // One message, no retry: the relay will refuse again until the site's operator fixes its configuration.
    nodes.push(
      h(
        'div',
        { class: 'panel' },
        h('p', { id: 'walletconnect-refused', class: 'status refused', role: 'alert' }, parameters.refused),
      ),
    )
    return nodes
  }
  if (single) nodes.push(singleLink(single, parameters))
  if (toggle) nodes.push(renderTabs(parameters, showLinks ? 'links' : 'qr'))
  const panel = showLinks ? linksPanel(parameters) : parameters.qrPanel()
  // The panel alone scrolls: the tabs stay where they are, and the card keeps one height (createStyles).
  nodes.push(
    toggle
      ? h(
          'div',
          { class: 'panel', role: 'tabpanel', 'aria-labelledby': `tab-${showLinks ? 'links' : 'qr'}` },
          panel,
        )
      : h('div', { class: 'panel' }, panel),
  )
  return nodes
}

function renderTabs({ platform, strings, onView }: RenderBodyParameters, selected: View): HTMLElement {
  const linksLabel = platform === 'desktop' ? strings.desktop : strings.mobile
  const tab = (view: View, label: string) =>
    h(
      'button',
      {
        type: 'button',
        role: 'tab',
        class: 'tab',
        id: `tab-${view}`,
        'data-key': `tab-${view}`,
        'aria-selected': String(view === selected),
        onclick: () => onView(view),
        onkeydown: (event) => {
          const key = (event as KeyboardEvent).key
          if (key !== 'ArrowLeft' && key !== 'ArrowRight') return
          // Two tabs: either arrow selects the other one and moves focus with it (WAI-ARIA tabs pattern).
          const other = view === 'qr' ? 'links' : 'qr'
          const root = (event.currentTarget as HTMLElement).getRootNode() as ParentNode
          onView(other)
          root.querySelector<HTMLElement>(`[data-key="tab-${other}"]`)?.focus()
        },
      },
      label,
    )
  const tabs =
    platform === 'desktop'
      ? [tab('qr', strings.qrcode), tab('links', linksLabel)]
      : [tab('links', linksLabel), tab('qr', strings.qrcode)]
  return h('div', { role: 'tablist', class: 'tabs' }, ...tabs)
}

function linksPanel({ platform, registry, strings, uri, walletList, onRetry }: RenderBodyParameters): Node {
  if (platform === 'android') {
    return h(
      'div',
      {},
      h('p', { class: 'text' }, strings.connect_mobile_wallet),
      h(
        'a',
        {
          id: `walletconnect-connect-button-${strings.connect}`,
          class: 'button',
          'data-key': 'connect',
          href: uri,
          rel: 'noopener noreferrer',
          onclick: () => {
            // Android resolves the raw `wc:` scheme itself (its app chooser), so the choice is `wc:{topic}@1`.
            if (uri) saveDeepLinkChoice('Unknown', uri)
          },
        },
        strings.connect,
      ),
    )
  }
  if (registry.status === 'loading') return h('p', { class: 'status', role: 'status' }, strings.loading)
  if (registry.status === 'error') {
    return h(
      'div',
      { role: 'alert' },
      h('p', { class: 'status' }, strings.something_went_wrong),
      h('button', { type: 'button', class: 'button', 'data-key': 'retry', onclick: onRetry }, strings.retry),
    )
  }
  return walletList()
}

function singleLink(wallet: Wallet, { uri, strings }: RenderBodyParameters): HTMLElement {
  const href = uri === undefined ? undefined : formatDeepLink(wallet, uri)
  return h(
    'a',
    {
      class: 'single',
      'data-key': 'single',
      href,
      target: '_blank',
      rel: 'noopener noreferrer',
      onclick: () => {
        if (href !== undefined) saveDeepLinkChoice(wallet.name, href)
      },
    },
    `${strings.connect_with} ${wallet.name} ›`,
  )
}
