import { InvalidUriError } from '@pairlink/protocol'
import { type CodeState, createCountdown } from '../Countdown/createCountdown.js'
import { readExpiry } from '../Countdown/readExpiry.js'
import { MODAL_FADE_MS } from '../constants.js'
import { ModalEnvironmentError } from '../errors.js'
import { h } from '../h.js'
import { createInjectedList } from '../InjectedList/createInjectedList.js'
import { getDirection } from '../locales/languages.js'
import { getStrings, hasStrings, resolveModalLanguage } from '../locales/strings.js'
import { detectPlatform } from '../platform/detectPlatform.js'
import { fetchRegistry } from '../registry/fetchRegistry.js'
import type { Wallet } from '../registry/formatDeepLink.js'
import { filterWallets } from '../registry/parseRegistry.js'
import { resolveRegistry } from '../registry/resolveRegistry.js'
import { readColorScheme, resolveTheme } from '../themes/resolveTheme.js'
import { createWalletList, type WalletList } from '../WalletList/createWalletList.js'
import { createQrPanel, type QrPanel } from './createQrPanel.js'
import { createStyles } from './createStyles.js'
import type { ModalOptions, ModalStatus } from './ModalOptions.js'
import { type RegistryState, renderBody, type View } from './renderBody.js'
import { returnFocus } from './returnFocus.js'
import { trapTab } from './trapTab.js'

export type { ModalOptions, ModalStatus }

/** Parameters of {@link createModal}. */
export type CreateModalParameters = ModalOptions & {
  /** The full `wc:` pairing URI; `''` only with `status: 'refused'` (a relay refused before any code existed). */
  uri: string
  /** Runs once, after the fade-out, when the person closes the modal (button, Escape, backdrop). */
  onUserClose?: (() => void) | undefined
  /** The status it opens with (see {@link Modal.setStatus}). @default 'ready' */
  status?: ModalStatus | undefined
  /** The message of a `'refused'` status. @default `relay_refused` in the modal's language */
  message?: string | undefined
}

/** The callbacks {@link Modal.setUri} can swap along with the URI. */
export type ModalCallbacks = Pick<CreateModalParameters, 'onUserClose' | 'onExpired' | 'onInjected'>

/** A mounted modal. */
export type Modal = {
  /** The `#walletconnect-wrapper` host element; the views live in its open shadow root. */
  readonly host: HTMLElement
  /** Whether it is on the page and not closing: only then does {@link Modal.setUri} change anything. */
  readonly isOpen: boolean
  /**
   * Shows another URI in place — QR code, copy link, deep links, countdown — without re-opening, so that a fresh
   * pairing replaces an expired one under the person's eyes. `callbacks`, when given, replace both callbacks.
   * Throws `InvalidUriError` for a text that is not a `wc:` URI, as {@link createModal}.
   */
  setUri: (uri: string, callbacks?: ModalCallbacks) => void
  /** Fades out and removes the modal without calling `onUserClose` (the app closed it). */
  close: () => void
  /** Removes the modal at once, without a fade. */
  destroy: () => void
  /**
   * Says whether the bridge can be reached (see {@link ModalStatus}); `'refused'` shows `message` (or `relay_refused`)
   * in place of the code and lists; `'ready'` clears either.
   */
  setStatus: (status: ModalStatus, message?: string) => void
}

/**
 * v1's `ERROR_INVALID_URI`, byte-exact (pinned against `V1_ERRORS.INVALID_URI` in the tests). Spelled out here
 * because importing `V1_ERRORS` would pull every v1 text into the 15 KB browser build.
 */
const INVALID_URI = 'URI format is invalid'

let current: { modal: Modal; opener: Element | null } | undefined

/**
 * Mounts the QR-code modal on `document.body`: the framework-free core that both `open()` and the React
 * `<QrModal>` drive. One modal shows at a time; a new one replaces the old at once.
 *
 * @example
 * const modal = createModal({ uri, onUserClose: () => console.log('closed'), registryUrl: '/registry/wallets.json' })
 * modal.close()
 */
export function createModal(parameters: CreateModalParameters): Modal {
  let { uri, onUserClose, onExpired, onInjected } = parameters
  if (typeof document === 'undefined') throw new ModalEnvironmentError()
  if (uri !== '' || parameters.status !== 'refused') checkUri(uri)

  const opener = current ? current.opener : (parameters.returnFocusTo ?? document.activeElement)
  current?.modal.destroy()
  const platform = parameters.platform ?? detectPlatform()
  // A table not loaded yet (see `loadStrings`, which `open()` awaits) gives English, and says so in `lang`.
  const wanted = resolveModalLanguage(parameters.language)
  const language = hasStrings(wanted) ? wanted : 'en'
  const strings = getStrings(language)
  const side = platform === 'desktop' ? 'desktop' : 'mobile'
  const allowList = side === 'desktop' ? parameters.desktopLinks : parameters.mobileLinks
  // No registry named and no project id: no list at all (never an error screen for it), the QR code alone.
  const source = resolveRegistry(parameters)
  const fetches = platform !== 'android' && allowList?.length !== 0 && source !== undefined

  let view: View = platform === 'desktop' ? 'qr' : 'links'
  let registry: RegistryState = fetches ? { status: 'loading' } : { status: 'ready', wallets: [] }
  let walletList: WalletList | undefined
  let abort: AbortController | undefined
  let closing = false
  let fadeTimer: ReturnType<typeof setTimeout> | undefined
  let pendingCallback: (() => void) | undefined
  let code: CodeState = 'live'
  let unreachable = false
  // The relay's refusal, when it refused: it replaces the code and the lists until a new URI or `'ready'`.
  let refused = parameters.status === 'refused' ? parameters.message || strings.relay_refused : undefined
  // The wallet list as drawn: the registry's, less the wallets the browser announces (listed above it).
  let listed: Wallet[] = []
  // What the links carry: nothing while the code is expired, so no wallet is sent a dead pairing.
  const linkUri = () => (code === 'live' ? uri : undefined)

  const host = h('div', { id: 'walletconnect-wrapper', style: 'all:initial' })
  const shadow = host.attachShadow({ mode: 'open' })
  const body = h('div', { class: 'body' })
  // Made on first use: a modal opened refused, before any code existed, has none.
  let qrPanel: QrPanel | undefined
  const getQrPanel = () => {
    qrPanel ??= createQrPanel({ uri, strings })
    qrPanel.setState({ code, unreachable })
    return qrPanel.element
  }
  const countdown = createCountdown({
    strings,
    onState: (state) => {
      const hadFocus = shadow.activeElement !== null
      code = state
      qrPanel?.setState({ code, unreachable })
      walletList?.setUri(linkUri())
      render()
      // A control that just went dead drops focus to the page's <body>: keep keyboard users in the dialog, on the
      // way forward when there is one.
      const focused = shadow.activeElement
      if (hadFocus && (focused === null || focused === card || focused.matches('[disabled],a:not([href])')))
        (card.querySelector<HTMLElement>('[data-key="refresh"]') ?? card).focus()
    },
  })
  // A live region present from the start, so that screen readers announce the message when it appears.
  const bridgeStatus = h('p', { id: 'bridge-status', class: 'bridge', role: 'status' })
  const closeButton = h('button', {
    type: 'button',
    id: 'walletconnect-qrcode-close',
    class: 'close',
    'aria-label': strings.close,
    onclick: () => userClose(),
  })
  closeButton.innerHTML =
    '<svg width="14" height="14" viewBox="0 0 14 14" aria-hidden="true"><path d="M1 1l12 12M13 1L1 13" stroke="currentColor" stroke-width="2" stroke-linecap="round"/></svg>'
  const card = h(
    'div',
    { class: 'card', role: 'dialog', 'aria-modal': 'true', 'aria-labelledby': 'title', tabindex: '-1' },
    h(
      'div',
      { class: 'header' },
      h('h2', { id: 'title', class: 'title' }, parameters.title || strings.title),
      closeButton,
    ),
    bridgeStatus,
    body,
    countdown.element,
  )
  const root = h(
    'div',
    {
      id: 'walletconnect-qrcode-modal',
      class: 'root',
      lang: language,
      dir: getDirection(language),
      'data-theme': resolveTheme(parameters.theme, readColorScheme(document)),
    },
    h('div', { class: 'backdrop', onclick: () => userClose() }),
    card,
  )
  shadow.append(h('style', {}, createStyles()), root)
  const injectedList = createInjectedList({
    strings,
    onChange: () => render(),
    onChoose: (wallet) => {
      const callback = onInjected
      finish()
      // At once, inside the click: a wallet may open its window only on a user gesture.
      callback?.(wallet)
    },
  })

  const render = () => {
    const focused = shadow.activeElement as HTMLElement | null
    const hadFocus = focused !== null && body.contains(focused)
    const shown = unlisted(registry)
    body.replaceChildren(
      ...renderBody({
        platform,
        view,
        registry: shown,
        uri: linkUri(),
        strings,
        refused,
        qrPanel: getQrPanel,
        injected: onInjected && injectedList.render(),
        walletList: () => {
          const wallets = shown.status === 'ready' ? shown.wallets : []
          // Rebuilt when a browser wallet announced itself (or left) and the list changed with it.
          if (walletList && (wallets.length !== listed.length || wallets.some((w, i) => w !== listed[i]))) {
            walletList.dispose()
            walletList = undefined
          }
          listed = wallets
          walletList ??= createWalletList({ wallets, uri: linkUri(), strings })
          return walletList.element
        },
        onView: (next) => {
          view = next
          render()
        },
        onRetry: () => void load(),
      }),
    )
    // Re-rendering moves the panel and replaces the toggle and links; keep focus where it was (or on the control
    // that replaced it) so keyboard users do not fall to <body>.
    if (hadFocus && shadow.activeElement !== focused) {
      const key = focused.dataset.key
      const target = body.contains(focused)
        ? focused
        : key
          ? body.querySelector<HTMLElement>(`[data-key="${key}"]`)
          : null
      target?.focus()
      if (!target || shadow.activeElement !== target) card.focus()
    }
  }

  // Wallets the browser announces (by `rdns`) are listed once, among the browser wallets, when the modal offers them.
  const unlisted = (state: RegistryState): RegistryState => {
    if (state.status !== 'ready' || !onInjected) return state
    const announced = new Set(injectedList.rdns())
    return { status: 'ready', wallets: state.wallets.filter((wallet) => !announced.has(wallet.rdns)) }
  }

  const load = async () => {
    if (!source) return
    abort?.abort()
    const controller = new AbortController()
    abort = controller
    registry = { status: 'loading' }
    walletList?.dispose()
    walletList = undefined
    render()
    try {
      const wallets = await fetchRegistry({
        url: source.url,
        explorer: source.explorer,
        side,
        fetch: parameters.fetch,
        signal: controller.signal,
      })
      registry = { status: 'ready', wallets: filterWallets(wallets, allowList) }
    } catch {
      registry = { status: 'error' }
    }
    if (abort !== controller || closing) return
    render()
  }

  const onKeyDown = (event: KeyboardEvent) => {
    if (closing || current?.modal !== modal) return
    if (event.key === 'Escape') {
      event.preventDefault()
      userClose()
    } else if (event.key === 'Tab') trapTab(event, card, shadow)
  }

  const teardown = () => {
    document.removeEventListener('keydown', onKeyDown, true)
    injectedList.dispose()
    abort?.abort()
    qrPanel?.dispose()
    countdown.dispose()
    walletList?.dispose()
  }

  const remove = () => {
    clearTimeout(fadeTimer)
    const hadFocus = document.activeElement === host || document.activeElement === document.body
    host.remove()
    if (current?.modal === modal) {
      current = undefined
      if (hadFocus && opener instanceof HTMLElement && opener.isConnected) returnFocus(opener)
    }
    const callback = pendingCallback
    pendingCallback = undefined
    callback?.()
  }

  const finish = (callback?: () => void) => {
    if (closing) return
    closing = true
    pendingCallback = callback
    teardown()
    if (globalThis.matchMedia?.('(prefers-reduced-motion: reduce)').matches) return remove()
    root.classList.add('out')
    fadeTimer = setTimeout(remove, MODAL_FADE_MS)
  }

  const userClose = () => finish(onUserClose)

  const setStatus = (status: ModalStatus, message?: string) => {
    if (closing) return
    unreachable = status === 'unreachable'
    // A v2 code (`@2`) pairs through a relay, a v1 code through a bridge: the server is named as the dapp names it.
    bridgeStatus.textContent = unreachable
      ? strings[/^wc:[^@]*@2/.test(uri) ? 'relay_unreachable' : 'bridge_unreachable']
      : ''
    qrPanel?.setState({ code, unreachable })
    const was = refused
    refused = status === 'refused' ? message || strings.relay_refused : undefined
    if (was === refused) return
    if (refused) {
      // Nothing goes on behind the message: no countdown asking for codes, no list loading.
      countdown.start(undefined, undefined)
      abort?.abort()
      if (registry.status === 'loading') registry = { status: 'error' }
    } else if (uri) countdown.start(readExpiry(uri), onExpired)
    render()
  }

  const modal: Modal = {
    host,
    get isOpen() {
      return !closing && host.isConnected
    },
    setUri: (next, callbacks) => {
      checkUri(next)
      if (closing) return
      if (callbacks) {
        const offered = onInjected !== undefined
        ;({ onUserClose, onExpired, onInjected } = callbacks)
        if (offered !== (onInjected !== undefined)) render()
      }
      if (next !== uri) {
        uri = next
        // A fresh code: the relay accepted this pairing after all.
        refused = undefined
        qrPanel?.setUri(uri)
        walletList?.setUri(linkUri())
        render()
      }
      // Last, as it may turn the code dead (or live again) and re-render with the new state.
      countdown.start(readExpiry(uri), onExpired)
    },
    close: () => finish(),
    setStatus,
    destroy: () => {
      closing = true
      teardown()
      remove()
    },
  }

  document.body.append(host)
  current = { modal, opener }
  document.addEventListener('keydown', onKeyDown, true)
  render()
  card.focus()
  if (refused) return modal
  countdown.start(readExpiry(uri), onExpired)
  if (fetches) void load()
  return modal
}

/** Throws v1's `InvalidUriError` for a text that is not a `wc:` URI (before `open()` waits for a language too). */
export function checkUri(uri: unknown): asserts uri is string {
  if (typeof uri !== 'string' || !uri.startsWith('wc:')) throw new InvalidUriError(INVALID_URI)
}
