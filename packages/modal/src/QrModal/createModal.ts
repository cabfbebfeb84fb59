import { InvalidUriError } from '@pairlink/protocol'
import { createCopyLink } from '../CopyLink/createCopyLink.js'
import { MODAL_FADE_MS } from '../constants.js'
import { ModalEnvironmentError } from '../errors.js'
import { h } from '../h.js'
import { getDirection, getStrings, type Language, resolveLanguage } from '../locales/strings.js'
import { detectPlatform, type Platform } from '../platform/detectPlatform.js'
import { renderQrCode } from '../QrCode/renderQrCode.js'
import { fetchRegistry } from '../registry/fetchRegistry.js'
import { filterWallets } from '../registry/parseRegistry.js'
import { readColorScheme, resolveTheme, type Theme } from '../themes/resolveTheme.js'
import { createWalletList, type WalletList } from '../WalletList/createWalletList.js'
import { createStyles } from './createStyles.js'
import { type RegistryState, renderBody, type View } from './renderBody.js'
import { returnFocus } from './returnFocus.js'

/**
 * What the modal says about the bridge the pairing goes through: `'ready'`, or `'unreachable'` while the dapp's
 * client cannot reach it and retries (the QR code is dimmed and marked busy: no wallet could pair through it yet).
 */
export type ModalStatus = 'ready' | 'unreachable'

/** Options of the modal, a superset of v1's `qrcodeModalOptions`. */
export type ModalOptions = {
  /**
   * Wallet registry answering the v2 shape `{ listings, count }`.
   * @default 'https://registry.walletconnect.com/api/v2/wallets'
   */
  registryUrl?: string | undefined
  /** Allow-list of mobile wallet names, in display order (v1 `mobileLinks`). `[]` shows no list. @default every wallet */
  mobileLinks?: readonly string[] | undefined
  /** Allow-list of desktop wallet names (v1 `desktopLinks`). `[]` shows the QR code only. @default every wallet */
  desktopLinks?: readonly string[] | undefined
  /**
   * The modal's colour scheme (see {@link Theme}); an app passes its own so that the modal looks like it.
   * @default 'auto' (the page's declared `color-scheme`, else the system's)
   */
  theme?: Theme | undefined
  /**
   * The modal's language, as a language tag (`'de'`, `'pt-BR'`); one the modal does not ship gives English.
   * @default the page's `<html lang>`, else `navigator.language`
   */
  language?: Language | (string & {}) | undefined
  /**
   * The dialog's title, in the app's words.
   * @default 'Connect a wallet' (in the modal's language)
   */
  title?: string | undefined
  /**
   * Where focus goes back when the modal closes. An app that opens the modal later than the click (after loading
   * it lazily, when its opener may already be disabled and unfocused) passes the element that was focused.
   * @default the element focused when the modal opened
   */
  returnFocusTo?: Element | null | undefined
  /** Forces the platform (tests, previews). @default detected from the user agent */
  platform?: Platform | undefined
  /** The `fetch` the registry is loaded with. @default globalThis.fetch */
  fetch?: typeof fetch | undefined
}

/** Parameters of {@link createModal}. */
export type CreateModalParameters = ModalOptions & {
  /** The full `wc:` pairing URI. */
  uri: string
  /** Runs once, after the fade-out, when the person closes the modal (button, Escape, backdrop). */
  onUserClose?: (() => void) | undefined
}

/** A mounted modal. */
export type Modal = {
  /** The `#walletconnect-wrapper` host element; the views live in its open shadow root. */
  readonly host: HTMLElement
  /** Fades out and removes the modal without calling `onUserClose` (the app closed it). */
  close: () => void
  /** Removes the modal at once, without a fade. */
  destroy: () => void
  /** Says whether the bridge can be reached (see {@link ModalStatus}); `'ready'` clears the message. */
  setStatus: (status: ModalStatus) => void
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
  const { uri } = parameters
  if (typeof document === 'undefined') throw new ModalEnvironmentError()
  if (typeof uri !== 'string' || !uri.startsWith('wc:')) throw new InvalidUriError(INVALID_URI)

  const opener = current ? current.opener : (parameters.returnFocusTo ?? document.activeElement)
  current?.modal.destroy()
  const platform = parameters.platform ?? detectPlatform()
  const language = resolveLanguage(
    parameters.language,
    document.documentElement.lang,
    globalThis.navigator?.language,
  )
  const strings = getStrings(language)
  const side = platform === 'desktop' ? 'desktop' : 'mobile'
  const allowList = side === 'desktop' ? parameters.desktopLinks : parameters.mobileLinks
  const fetches = platform !== 'android' && allowList?.length !== 0

  let view: View = platform === 'desktop' ? 'qr' : 'links'
  let registry: RegistryState = fetches ? { status: 'loading' } : { status: 'ready', wallets: [] }
  let walletList: WalletList | undefined
  let abort: AbortController | undefined
  let closing = false
  let fadeTimer: ReturnType<typeof setTimeout> | undefined
  let pendingCallback: (() => void) | undefined

  const host = h('div', { id: 'walletconnect-wrapper', style: 'all:initial' })
  const shadow = host.attachShadow({ mode: 'open' })
  const body = h('div', { class: 'body' })
  const copyLink = createCopyLink({ uri, strings })
  const qrCode = renderQrCode(document, uri, strings.qrcode)
  qrCode.setAttribute('class', 'walletconnect-qrcode__image qr')
  const qrPanel = h(
    'div',
    {},
    h('p', { id: 'walletconnect-qrcode-text', class: 'text' }, strings.scan_qrcode_with_wallet),
    qrCode,
    copyLink.element,
  )
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

  const render = () => {
    const focused = shadow.activeElement as HTMLElement | null
    const key = focused?.dataset.key
    body.replaceChildren(
      ...renderBody({
        platform,
        view,
        registry,
        uri,
        strings,
        qrPanel,
        walletList: () => {
          walletList ??= createWalletList({
            wallets: registry.status === 'ready' ? registry.wallets : [],
            uri,
            strings,
          })
          return walletList.element
        },
        onView: (next) => {
          view = next
          render()
        },
        onRetry: () => void load(),
      }),
    )
    // Re-rendering replaces the toggle; keep focus where it was so keyboard users do not fall to <body>.
    if (key && body.contains(focused) === false)
      (body.querySelector<HTMLElement>(`[data-key="${key}"]`) ?? card).focus()
  }

  const load = async () => {
    abort?.abort()
    const controller = new AbortController()
    abort = controller
    registry = { status: 'loading' }
    walletList?.dispose()
    walletList = undefined
    render()
    try {
      const wallets = await fetchRegistry({
        url: parameters.registryUrl,
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

  const focusables = () =>
    [...card.querySelectorAll<HTMLElement>('a[href],button,input,[tabindex="0"]')].filter(
      (element) => !element.hasAttribute('disabled'),
    )

  const onKeyDown = (event: KeyboardEvent) => {
    if (closing || current?.modal !== modal) return
    if (event.key === 'Escape') {
      event.preventDefault()
      userClose()
    } else if (event.key === 'Tab') {
      const list = focusables()
      const first = list[0]
      const last = list[list.length - 1]
      const active = shadow.activeElement as HTMLElement | null
      const inside = active !== null && card.contains(active)
      if (event.shiftKey && (!inside || active === first || active === card)) {
        event.preventDefault()
        last?.focus()
      } else if (!event.shiftKey && (!inside || active === last)) {
        event.preventDefault()
        first?.focus()
      }
    }
  }

  const teardown = () => {
    document.removeEventListener('keydown', onKeyDown, true)
    abort?.abort()
    copyLink.dispose()
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

  const userClose = () => finish(parameters.onUserClose)

  const setStatus = (status: ModalStatus) => {
    const unreachable = status === 'unreachable'
    bridgeStatus.textContent = unreachable ? strings.bridge_unreachable : ''
    if (unreachable) {
      qrCode.setAttribute('aria-busy', 'true')
      qrCode.setAttribute('aria-describedby', 'bridge-status')
    } else {
      qrCode.removeAttribute('aria-busy')
      qrCode.removeAttribute('aria-describedby')
    }
  }

  const modal: Modal = {
    host,
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
  if (fetches) void load()
  return modal
}
